package io.zklock.fault.register;

import io.zklock.fault.contender.RegisterClient;
import io.zklock.fault.history.History;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fenced register over its real socket, with the contenders' client.
 */
@Timeout(10)
class FencedRegisterTests {

	@Test
	void shouldRejectAWriteWithATokenBelowTheLargestSeenAndAcceptItUnfenced() {
		History history = new History();
		try (FencedRegister register = new FencedRegister(history);
				RegisterClient client = new RegisterClient(register.port())) {
			assertThat(client.read("k", 33)).isZero();
			assertThat(client.read("k", 34)).as("a newer holder read").isZero();
			assertThat(client.write("k", 34, 1)).isTrue();
			assertThat(client.write("k", 33, 1)).as("stale write, fenced").isFalse();
			register.setFenced(false);
			assertThat(client.write("k", 33, 1)).as("stale write, unfenced").isTrue();
			KeyStats stats = register.stats("k");
			assertThat(stats.highestToken()).isEqualTo(34);
			assertThat(stats.acceptedWrites()).isEqualTo(2);
			assertThat(stats.rejectedStale()).isEqualTo(1);
			assertThat(stats.acceptedStale()).isEqualTo(1);
			assertThat(stats.lostUpdate()).as("two increments from 0 left the counter at 1").isTrue();
			assertThat(history.snapshot()).extracting((e) -> e.f())
				.containsExactly("accepted", "rejected", "accepted-stale");
		}
	}

	@Test
	void shouldFenceOffTheOlderHoldersWriteAfterAReadWithANewerToken() {
		try (FencedRegister register = new FencedRegister(new History());
				RegisterClient older = new RegisterClient(register.port());
				RegisterClient newer = new RegisterClient(register.port())) {
			older.read("k", 10);
			newer.read("k", 11);
			assertThat(older.write("k", 10, 1)).as("write after a newer holder's read").isFalse();
			assertThat(newer.write("k", 11, 1)).isTrue();
			assertThat(register.stats("k").lostUpdate()).isFalse();
		}
	}

}
