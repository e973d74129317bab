package io.zklock.benchmarks.load;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.server.RequestCounter;
import io.zklock.benchmarks.server.ZooKeeperServer;
import io.zklock.lock.LockMode;

/**
 * What a load runs: one lock library over its server. Every client it opens is its own session
 * or connection, as a process of a service has; its server counts the requests.
 */
public interface Contender {

	/**
	 * The name in reports.
	 * @return such as {@code "Redisson RLock"}
	 */
	String displayName();

	/**
	 * Opens one client with its own session or connection; closing the client closes them.
	 * @param index the client's index in its load, from 0 (an ensemble spreads clients by it)
	 * @return the client
	 * @throws Exception if it cannot connect
	 */
	LockClient open(int index) throws Exception;

	/**
	 * The server's own counters.
	 * @return the counter of the server this contender's clients use
	 */
	RequestCounter counter();

	/**
	 * The ZooKeeper server, for the checks that look at lock nodes and watches.
	 * @return the server, or {@code null} for a lock that is not on ZooKeeper
	 */
	default ZooKeeperServer zooKeeper() {
		return null;
	}

	/**
	 * A ZooKeeper library: each client a Curator session of its own, the library's locks over it.
	 * @param server the server
	 * @param library the library
	 * @param root the ZooKeeper path under which the library's lock root is made
	 * @return the contender
	 */
	static Contender of(ZooKeeperServer server, Library library, String root) {
		return new Contender() {

			@Override
			public String displayName() {
				return library.displayName();
			}

			@Override
			public LockClient open(int index) throws Exception {
				ZkClient session = ZkClient.connect(server.connectString(index));
				return owning(library.open(session, root), session);
			}

			@Override
			public RequestCounter counter() {
				return server.counters();
			}

			@Override
			public ZooKeeperServer zooKeeper() {
				return server;
			}

		};
	}

	/**
	 * A client that closes its own session or connection after itself.
	 * @param locks the library's client
	 * @param session what it runs over
	 * @return a client whose {@code close()} closes both
	 */
	static LockClient owning(LockClient locks, AutoCloseable session) {
		return new LockClient() {

			@Override
			public Held lock(String lockPath, LockMode mode) throws Exception {
				return locks.lock(lockPath, mode);
			}

			@Override
			public Held lock(String lockPath, LockMode mode, java.time.Duration wait) throws Exception {
				return locks.lock(lockPath, mode, wait);
			}

			@Override
			public String zooKeeperPath(String lockPath) {
				return locks.zooKeeperPath(lockPath);
			}

			@Override
			public void close() {
				try {
					locks.close();
				}
				finally {
					try {
						session.close();
					}
					catch (Exception ex) {
						// closing is best effort; the server expires what is left
					}
				}
			}

		};
	}

}
