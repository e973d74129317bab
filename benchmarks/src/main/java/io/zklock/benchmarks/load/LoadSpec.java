package io.zklock.benchmarks.load;

import java.time.Duration;

/**
 * What one contended load run does: how many clients (sessions) and threads per client loop
 * on one lock path (or on one of several keys under it), for how long, and in which modes.
 *
 * @param clients the clients, each a separate session or connection as a separate process would have
 * @param threadsPerClient the threads looping on each client
 * @param lockPath the one (hot) lock path all threads lock, or the parent of the keys
 * @param writeShare 0 for exclusive locks only; otherwise the share of write locks in a
 * read/write mix, such as 0.1 for 90% reads
 * @param warmup how long the threads loop before the counters are read
 * @param measure how long the measured window lasts (threads finish the cycle they are in)
 * @param observeLockNodes whether to sample the lock path's node count during the window
 * @param keys 1 for one lock path; otherwise each cycle locks one of this many keys at random,
 * {@code lockPath/0} … {@code lockPath/(keys-1)}
 */
public record LoadSpec(int clients, int threadsPerClient, String lockPath, double writeShare, Duration warmup,
		Duration measure, boolean observeLockNodes, int keys) {

	/**
	 * A load on one lock path.
	 * @param clients the clients
	 * @param threadsPerClient the threads per client
	 * @param lockPath the lock path
	 * @param writeShare 0, or the share of write locks
	 * @param warmup the warm-up
	 * @param measure the measured window
	 * @param observeLockNodes whether to sample the lock nodes
	 */
	public LoadSpec(int clients, int threadsPerClient, String lockPath, double writeShare, Duration warmup,
			Duration measure, boolean observeLockNodes) {
		this(clients, threadsPerClient, lockPath, writeShare, warmup, measure, observeLockNodes, 1);
	}

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

	/**
	 * The lock path of a key.
	 * @param key from 0 to {@code keys - 1}
	 * @return the lock path itself for a one-key load, else {@code lockPath/key}
	 */
	public String lockPath(int key) {
		return (this.keys == 1) ? this.lockPath : this.lockPath + "/" + key;
	}

	/**
	 * The same load with another measured window.
	 * @param window the window
	 * @return the load
	 */
	public LoadSpec withMeasure(Duration window) {
		return new LoadSpec(this.clients, this.threadsPerClient, this.lockPath, this.writeShare, this.warmup, window,
				this.observeLockNodes, this.keys);
	}

}
