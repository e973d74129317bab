package io.zklock.test.history;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockMode;
import io.zklock.test.history.LockEvent.Type;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The leadership recorder on two real elections: their terms and the writes of their leaders to a
 * fenced store (one that keeps the largest token it accepted) make a history that passes "one fenced
 * writer per term", and a stale leader's write is refused and counted.
 */
@Timeout(60)
class LeadershipHistoryTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final LockHistory history = new LockHistory();

	private long largestAccepted;

	@Test
	void shouldRecordTermsThatKeepOneFencedWriterPerTerm() throws Exception {
		try (TestingServer server = new TestingServer(true)) {
			ExecutorService safeNotify = Executors.newCachedThreadPool();
			try (CuratorFramework first = client(server, safeNotify); CuratorFramework second = client(server, safeNotify);
					LeaderElection one = new LeaderElection(new LockEngine(first, "/locks"));
					LeaderElection two = new LeaderElection(new LockEngine(second, "/locks"))) {
				one.addListener(this.history.leadershipListener("app-1"));
				two.addListener(this.history.leadershipListener("app-2"));
				Candidacy a = one.join("billing-close");
				Term aTerm = a.awaitTerm(WAIT).orElseThrow();
				write("app-1", aTerm);
				Candidacy b = two.join("billing-close");
				await().atMost(WAIT).until(() -> one.candidates("billing-close").size() == 2);
				a.yield();
				Term bTerm = b.awaitTerm(WAIT).orElseThrow();
				write("app-2", bTerm);
				// the old leader, late: its token is refused
				write("app-1", aTerm);
				a.leave();
				await().atMost(WAIT).until(() -> this.history.events().stream()
					.filter((e) -> e.type() == Type.TERM_GRANTED).count() >= 2);
			}
			finally {
				safeNotify.shutdownNow();
			}
		}
		TermCheckResult result = this.history.checkTerms().assertOneFencedWriterPerTerm();
		assertThat(result.terms()).isEqualTo(2);
		assertThat(result.acceptedWrites()).isEqualTo(2);
		assertThat(result.refusedWrites()).isEqualTo(1);
		assertThat(this.history.events()).filteredOn((e) -> e.type() == Type.TERM_REVOKED)
			.extracting(LockEvent::detail)
			.contains("YIELDED");
	}

	/** A fenced store: accepts a token at least the largest it accepted. */
	private synchronized void write(String holder, Term term) {
		boolean accepted = term.fencingToken() >= this.largestAccepted;
		if (accepted) {
			this.largestAccepted = term.fencingToken();
		}
		this.history.record(holder, accepted ? Type.WRITE_ACCEPTED : Type.WRITE_REFUSED, "ledger", LockMode.EXCLUSIVE,
				term.fencingToken(), "");
	}

	private static CuratorFramework client(TestingServer server, ExecutorService safeNotify) throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.retryPolicy(new RetryOneTime(100))
			.namespace("zklock")
			.runSafeService(safeNotify)
			.build();
		client.start();
		client.blockUntilConnected();
		return client;
	}

}
