package io.zklock.benchmarks.leadership;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 15's store, over its TCP protocol: a lower token is refused, an equal or higher one
 * accepted, a write without a token cannot be refused, and every request is kept with its writer
 * and the stamps of the check before it (began, returned).
 */
@Timeout(30)
class LeaderStoreTests {

	@Test
	void shouldRefuseOnlyATokenLowerThanTheHighestAcceptedAndKeepEveryCheckStamp() throws Exception {
		try (LeaderStore store = LeaderStore.start();
				LeaderStore.Connection old = new LeaderStore.Connection(store.port());
				LeaderStore.Connection next = new LeaderStore.Connection(store.port())) {
			assertThat(old.write("c1", 10L, 100, 101)).isTrue();
			assertThat(next.write("c2", 12L, 200, 201)).isTrue();
			assertThat(old.write("c1", 10L, 300, 301)).isFalse();
			assertThat(next.write("c2", 12L, 400, 401)).isTrue();
			assertThat(old.write("c1", null, 500, 501)).isTrue();

			assertThat(store.writes()).extracting(LeaderStore.Write::accepted)
				.containsExactly(true, true, false, true, true);
			assertThat(store.writes()).extracting(LeaderStore.Write::writer)
				.containsExactly("c1", "c2", "c1", "c2", "c1");
			assertThat(store.writes()).extracting(LeaderStore.Write::checkNanos)
				.containsExactly(100L, 200L, 300L, 400L, 500L);
			assertThat(store.writes()).extracting(LeaderStore.Write::checkedNanos)
				.containsExactly(101L, 201L, 301L, 401L, 501L);
			assertThat(store.writesFrom(3)).extracting(LeaderStore.Write::checkNanos).containsExactly(400L, 500L);
			assertThat(store.size()).isEqualTo(5);
		}
	}

}
