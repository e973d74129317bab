package io.zklock.benchmarks.scenarios;

import java.time.Duration;

import io.zklock.benchmarks.server.ServerCounters;

/**
 * The server's znode count ({@code mntr}'s {@code zk_znode_count}) and waits on it.
 */
final class ZnodeCount {

	private static final long POLL_MILLIS = 100;

	private final ServerCounters counters;

	ZnodeCount(ServerCounters counters) {
		this.counters = counters;
	}

	long now() throws Exception {
		return this.counters.mntr().get(ServerCounters.Mntr.ZNODE_COUNT);
	}

	/**
	 * Waits until the count has not changed for {@code quiet} (earlier scenarios' containers
	 * being reaped), at most {@code limit}.
	 * @return the settled count
	 */
	long settle(Duration quiet, Duration limit) throws Exception {
		long deadline = System.nanoTime() + limit.toNanos();
		long count = now();
		long stableSince = System.nanoTime();
		while (System.nanoTime() - deadline < 0) {
			Thread.sleep(POLL_MILLIS);
			long next = now();
			if (next != count) {
				count = next;
				stableSince = System.nanoTime();
			}
			else if (System.nanoTime() - stableSince >= quiet.toNanos()) {
				return count;
			}
		}
		return count;
	}

	/**
	 * Waits until the count is at most {@code target}, at most {@code limit}.
	 * @return the seconds it took, or -1 if the limit passed first
	 */
	double awaitAtMost(long target, Duration limit) throws Exception {
		long start = System.nanoTime();
		long deadline = start + limit.toNanos();
		while (now() > target) {
			if (System.nanoTime() - deadline >= 0) {
				return -1;
			}
			Thread.sleep(POLL_MILLIS);
		}
		return (System.nanoTime() - start) / 1e9;
	}

}
