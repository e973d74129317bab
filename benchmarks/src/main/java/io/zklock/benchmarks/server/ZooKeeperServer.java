package io.zklock.benchmarks.server;

/**
 * A ZooKeeper server the benchmarks run against, on a loopback address, with the
 * four-letter words enabled so that {@link ServerCounters} can read its own counters.
 * Closing it stops the server and deletes its data directory.
 */
public interface ZooKeeperServer extends AutoCloseable {

	/**
	 * The connect string of the server, such as {@code 127.0.0.1:40123}.
	 * @return the connect string
	 */
	String connectString();

	/**
	 * The connect string client number {@code client} of a load gets: the same for every client
	 * of a single server; on an ensemble, the clients are spread over its members.
	 * @param client the client's index, from 0
	 * @return the connect string
	 */
	default String connectString(int client) {
		return connectString();
	}

	/**
	 * The loopback port the server listens on.
	 * @return the client port
	 */
	int port();

	/**
	 * How the server runs, for reports, such as {@code "in-process (curator-test TestingServer)"}.
	 * @return a short description
	 */
	String description();

	/**
	 * Reads the server's own counters.
	 * @return counters of this server
	 */
	default ServerCounters counters() {
		return new ServerCounters("127.0.0.1", port());
	}

	/** Stops the server. */
	@Override
	void close();

}
