package io.zklock.benchmarks.load;

import java.time.Duration;

/**
 * What one contended load run does: how many clients (sessions) and threads per client loop
 * on one lock path, for how long, and in which modes.
 *
 * @param clients the clients, each a separate ZooKeeper session as a separate process would have
 * @param threadsPerClient the threads looping on each client
 * @param lockPath the one (hot) lock path all threads lock
 * @param writeShare 0 for exclusive locks only; otherwise the share of write locks in a
 * read/write mix, such as 0.1 for 90% reads
 * @param warmup how long the threads loop before the counters are read
 * @param measure how long the measured window lasts (threads finish the cycle they are in)
 * @param observeLockNodes whether to sample the lock path's node count during the window
 */
public record LoadSpec(int clients, int threadsPerClient, String lockPath, double writeShare, Duration warmup,
		Duration measure, boolean observeLockNodes) {

	/**
	 * Whether the run mixes read and write locks.
	 * @return {@code true} for a read/write mix
	 */
	public boolean readWrite() {
		return this.writeShare > 0;
	}

	/**
	 * All threads of the run.
	 * @return clients × threads per client
	 */
	public int threads() {
		return this.clients * this.threadsPerClient;
	}

}
