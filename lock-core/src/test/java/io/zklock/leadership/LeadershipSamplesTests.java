package io.zklock.leadership;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.zklock.lock.LockEngine;
import io.zklock.lock.ZkServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample of docs/leadership.md ({@link DailyClose}) on a real server: one of two instances
 * closes the day, the other takes over when it shuts down, and the ledger refuses the first one's
 * token once the second wrote.
 */
@Timeout(60)
class LeadershipSamplesTests extends ZkServerTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** A fenced ledger: the newest token it accepted, and who closed each invoice with which token. */
	private final Map<String, Long> closed = new ConcurrentHashMap<>();

	private long newest;

	@Test
	void shouldCloseTheDayOnTheLeaderOnlyAndHandOverAtShutdown() throws Exception {
		List<String> invoices = List.of("inv-1", "inv-2", "inv-3");
		try (DailyClose first = new DailyClose(new LockEngine(this.clients.newClient(), "/locks"), this::close,
				invoices)) {
			Term firstTerm = first.candidacy().awaitTerm(WAIT).orElseThrow();
			await().atMost(WAIT).until(() -> this.closed.size() == 3);
			assertThat(this.closed).containsValues(firstTerm.fencingToken());
			assertThat(first.whoLeads()).hasValueSatisfying((who) -> assertThat(who).contains("application 'billing'"));
			first.markClosed(firstTerm);

			try (DailyClose second = new DailyClose(new LockEngine(this.clients.newClient(), "/locks"), this::close,
					List.of("inv-4"))) {
				assertThat(second.candidacy().awaitTerm(Duration.ofMillis(300))).isEmpty();
				first.close();
				Term secondTerm = second.candidacy().awaitTerm(WAIT).orElseThrow();
				await().atMost(WAIT).until(() -> this.closed.containsKey("inv-4"));
				assertThat(this.closed.get("inv-4")).isEqualTo(secondTerm.fencingToken());
				org.assertj.core.api.Assertions.assertThatIllegalStateException()
					.isThrownBy(() -> close("late", firstTerm.fencingToken()));
			}
		}
	}

	private synchronized void close(String invoice, long fencingToken) {
		if (fencingToken < this.newest) {
			throw new IllegalStateException("Token " + fencingToken + " is older than " + this.newest);
		}
		this.newest = fencingToken;
		this.closed.put(invoice, fencingToken);
	}

}
