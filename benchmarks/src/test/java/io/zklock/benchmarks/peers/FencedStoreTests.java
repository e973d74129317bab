package io.zklock.benchmarks.peers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pause test's store, over its TCP protocol: a lower token is refused, an equal or higher one
 * accepted, and a write without a token cannot be refused.
 */
@Timeout(30)
class FencedStoreTests {

	@Test
	void shouldRefuseOnlyATokenLowerThanTheHighestAccepted() throws Exception {
		try (FencedStore store = FencedStore.start();
				FencedStore.Connection holder = new FencedStore.Connection(store.port());
				FencedStore.Connection rival = new FencedStore.Connection(store.port())) {
			assertThat(holder.write("holder", 10L)).isTrue();
			assertThat(rival.write("rival", 12L)).isTrue();
			assertThat(holder.write("holder", 10L)).isFalse();
			assertThat(rival.write("rival", 12L)).isTrue();
			assertThat(holder.write("holder", null)).isTrue();

			assertThat(store.writes()).extracting(FencedStore.Write::accepted)
				.containsExactly(true, true, false, true, true);
		}
	}

}
