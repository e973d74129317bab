package io.zklock.test;

import java.io.File;
import java.time.Duration;

import org.apache.curator.test.TestingServer;

import io.zklock.lock.LockMode;

/**
 * The in-process ZooKeeper server of a test class that carries {@link EmbeddedZooKeeper}:
 * where it is, the namespace of the class, and locks held by another session.
 *
 * <pre class="code">
 * try (BusyLock busy = zookeeper.holdElsewhere("orders/42")) {
 *     assertThat(orders.shipIfFree(42)).isEmpty(); // onFailure = SKIP: skipped, the lock is busy
 * }
 * </pre>
 *
 * Injected as a test-method parameter, or autowired in a Spring test of the class (that bean
 * knows the application's {@code zklock.root-path}). Thread-safe; the server itself is
 * started and stopped by {@link EmbeddedZooKeeperExtension}.
 */
public final class TestZooKeeper {

	/** The lock root when the application does not set {@code zklock.root-path}. */
	public static final String DEFAULT_ROOT_PATH = "/locks";

	private static final Duration HOLD_WAIT = Duration.ofSeconds(10);

	private final TestingServer server;

	private final String namespace;

	private final String rootPath;

	TestZooKeeper(TestingServer server, String namespace, String rootPath) {
		this.server = server;
		this.namespace = namespace;
		this.rootPath = rootPath;
	}

	/**
	 * The server's address.
	 * @return a connect string such as {@code 127.0.0.1:41235}
	 */
	public String connectString() {
		return this.server.getConnectString();
	}

	/**
	 * The Curator namespace of this test class, which {@code zklock.zookeeper.namespace} is
	 * set to.
	 * @return the namespace, such as {@code zklock-test-ordertests-3}
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * The lock root that {@link #holdElsewhere(String)} locks under.
	 * @return the root path, {@code /locks} unless set
	 */
	public String rootPath() {
		return this.rootPath;
	}

	/**
	 * The properties that connect zklock to this server, for
	 * {@code ApplicationContextRunner.withPropertyValues(…)}.
	 * @return {@code zklock.zookeeper.connect-string}, {@code zklock.zookeeper.namespace} and
	 * {@code zklock.zookeeper.embedded.enabled=false} as {@code key=value} pairs
	 */
	public String[] propertyValues() {
		return new String[] { "zklock.zookeeper.connect-string=" + connectString(),
				"zklock.zookeeper.namespace=" + this.namespace, "zklock.zookeeper.embedded.enabled=false" };
	}

	/**
	 * This server with another lock root, for an application that sets
	 * {@code zklock.root-path}.
	 * @param rootPath the lock root, such as {@code /app/locks}
	 * @return a view of the same server
	 */
	public TestZooKeeper withRootPath(String rootPath) {
		return new TestZooKeeper(this.server, this.namespace, rootPath);
	}

	/**
	 * Takes an exclusive lock from another ZooKeeper session, as another instance of the
	 * application would, so the application finds it busy: an annotated method with
	 * {@code onFailure = SKIP} is skipped, one that waits times out. Blocks until the lock is
	 * held.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @return the busy lock; close it to release the lock and end the other session
	 * @throws IllegalStateException if the lock is not taken within ten seconds (it is held
	 * elsewhere in the test) or the server cannot be reached
	 */
	public BusyLock holdElsewhere(String lockPath) {
		return holdElsewhere(lockPath, LockMode.EXCLUSIVE);
	}

	/**
	 * Takes a lock in the given mode from another ZooKeeper session; see
	 * {@link #holdElsewhere(String)}. A {@link LockMode#READ} hold blocks writers only.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @param mode the mode to hold it in
	 * @return the busy lock; close it to release the lock and end the other session
	 * @throws IllegalStateException if the lock is not taken within ten seconds or the server
	 * cannot be reached
	 */
	public BusyLock holdElsewhere(String lockPath, LockMode mode) {
		return BusyLock.hold(connectString(), this.namespace, this.rootPath, lockPath, mode, HOLD_WAIT);
	}

	/** The server's data directory, deleted when the server stops. */
	File dataDirectory() {
		return this.server.getTempDirectory();
	}

	@Override
	public String toString() {
		return "TestZooKeeper[" + connectString() + ", namespace " + this.namespace + ", root " + this.rootPath + "]";
	}

}
