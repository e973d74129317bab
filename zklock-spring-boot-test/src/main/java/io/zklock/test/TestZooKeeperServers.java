package io.zklock.test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The running servers, by the test class they were started for: the JUnit extension starts
 * and stops them, and a Spring test context of the same class finds its server here.
 */
final class TestZooKeeperServers {

	private static final Map<Class<?>, Running> RUNNING = new ConcurrentHashMap<>();

	private static final AtomicInteger NAMESPACES = new AtomicInteger();

	/** The only address the server listens on, and the one in its connect string. */
	static final String LOOPBACK = "127.0.0.1";

	private TestZooKeeperServers() {
	}

	/**
	 * The server of a test class, started now if it is not running.
	 * @throws IllegalStateException if the server cannot start
	 */
	static Running obtain(Class<?> testClass) {
		return RUNNING.computeIfAbsent(testClass, TestZooKeeperServers::start);
	}

	/**
	 * The server of a test class or of the nearest enclosing class that has one.
	 * @return the server, or {@code null} if none is running
	 */
	static @Nullable Running find(Class<?> testClass) {
		for (Class<?> candidate = testClass; candidate != null; candidate = candidate.getEnclosingClass()) {
			Running running = RUNNING.get(candidate);
			if (running != null) {
				return running;
			}
		}
		return null;
	}

	private static Running start(Class<?> testClass) {
		TestingServer server;
		TestServerLogLevels.quiet();
		try {
			// a free port of the loopback interface only, a temporary data directory deleted on close
			server = new TestingServer(new InstanceSpec(null, 0, -1, -1, true, -1, -1, -1,
					Map.of("clientPortAddress", LOOPBACK), LOOPBACK), true);
		}
		catch (Exception ex) {
			throw new IllegalStateException(
					"Could not start the embedded ZooKeeper server of " + testClass.getName() + ": " + ex, ex);
		}
		String namespace = "zklock-test-" + testClass.getSimpleName().replaceAll("[^A-Za-z0-9]", "").toLowerCase()
				+ "-" + NAMESPACES.incrementAndGet();
		return new Running(testClass, server, new TestZooKeeper(server, namespace, TestZooKeeper.DEFAULT_ROOT_PATH));
	}

	/**
	 * One running server; closed by the extension store when its test class is done.
	 */
	@SuppressWarnings("deprecation") // CloseableResource: what JUnit 5.12 (Boot 3.5's line) closes
	static final class Running implements ExtensionContext.Store.CloseableResource, AutoCloseable {

		private final Class<?> testClass;

		private final TestingServer server;

		private final TestZooKeeper zookeeper;

		private final AtomicBoolean closed = new AtomicBoolean();

		Running(Class<?> testClass, TestingServer server, TestZooKeeper zookeeper) {
			this.testClass = testClass;
			this.server = server;
			this.zookeeper = zookeeper;
		}

		TestZooKeeper zookeeper() {
			return this.zookeeper;
		}

		/** Stops the server and deletes its data directory; once, however often it is called. */
		@Override
		public void close() throws Exception {
			if (this.closed.compareAndSet(false, true)) {
				RUNNING.remove(this.testClass, this);
				TestServerLogLevels.quiet();
				this.server.close();
			}
		}

	}

}
