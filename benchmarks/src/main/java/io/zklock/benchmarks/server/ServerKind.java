package io.zklock.benchmarks.server;

import java.util.Locale;

/**
 * The kinds of ZooKeeper server the benchmarks run against.
 */
public enum ServerKind {

	/** A server inside the benchmark JVM (curator-test {@code TestingServer}). */
	EMBEDDED,

	/** A standalone {@code ZooKeeperServerMain} in a child JVM on loopback. */
	PROCESS,

	/**
	 * Three voting members and an observer, each a child JVM with its own data directory and
	 * fsync on ({@link ZooKeeperEnsemble}).
	 */
	ENSEMBLE;

	/**
	 * The option value of this kind, as {@code --server=} takes it.
	 * @return {@code "embedded"}, {@code "process"} or {@code "ensemble"}
	 */
	public String optionValue() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Starts a server of this kind with ZooKeeper's default container reaper (every 60 s).
	 * @return the running server
	 * @throws Exception if it does not start
	 */
	public ZooKeeperServer start() throws Exception {
		return start(false);
	}

	/**
	 * Starts a server of this kind.
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * @return the running server
	 * @throws Exception if it does not start
	 */
	public ZooKeeperServer start(boolean fastReaper) throws Exception {
		return switch (this) {
			case EMBEDDED -> InProcessZooKeeper.start(fastReaper);
			case PROCESS -> ZooKeeperProcess.start(fastReaper);
			case ENSEMBLE -> ZooKeeperEnsemble.start(fastReaper);
		};
	}

}
