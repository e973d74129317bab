package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import ch.qos.logback.classic.Level;
import io.zklock.fixtures.FourLetterWords;
import io.zklock.fixtures.Sessions;
import io.zklock.fixtures.ZooKeeperServers;
import io.zklock.lock.internal.LocalHandoff;
import io.zklock.lock.internal.LockNodeName;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.KeeperException;
import org.slf4j.LoggerFactory;

import static org.awaitility.Awaitility.await;

/**
 * Shared fixtures of the lock-core tests: a real ZooKeeper server (curator-test
 * {@link TestingServer}) on a free port with the four-letter words enabled, Curator clients
 * that stand for separate processes, and probes of the server state (lock nodes, watches). What
 * needs no engine type comes from the build's test fixtures ({@code tests/test-fixtures}); this
 * class adds the lock engine's view (lock-node names, the product's namespace and root).
 */
public final class ZkTestSupport {

	/** The client namespace the product uses. */
	static final String NAMESPACE = "zklock";

	/** The lock root the product uses by default. */
	static final String ROOT = "/locks";

	public static final Duration AWAIT = Duration.ofSeconds(20);

	static {
		ZooKeeperServers.enableFourLetterWords();
		// without a logback-test.xml, logback logs ZooKeeper's server at DEBUG
		quiet("org.apache.zookeeper");
		quiet("org.apache.curator");
	}

	private ZkTestSupport() {
	}

	private static void quiet(String logger) {
		if (LoggerFactory.getLogger(logger) instanceof ch.qos.logback.classic.Logger logback) {
			logback.setLevel(Level.WARN);
		}
	}

	/**
	 * An engine with a local-handoff setting, as the tests of local handoff name them (the engine's
	 * builder takes the setting's parts).
	 */
	public static LockEngine engine(CuratorFramework client, String rootPath, LocalHandoff localHandoff) {
		LockEngine.Builder builder = LockEngine.builder(client).rootPath(rootPath);
		return (localHandoff.enabled() ? builder.localHandoff(localHandoff.maxHandoffs(), localHandoff.maxTime())
				: builder.localHandoff(false)).build();
	}

	/** Ends a client's session now ({@link Sessions#expire(CuratorFramework, String)}). */
	public static void expireSession(TestingServer server, CuratorFramework client) throws Exception {
		Sessions.expire(client, server.getConnectString());
	}

	/** Starts a server on a free port ({@link ZooKeeperServers#start()}). */
	public static TestingServer startServer() throws Exception {
		return ZooKeeperServers.start();
	}

	/**
	 * Starts a server on a free port ({@link ZooKeeperServers#start(Map)}).
	 * @param customProperties extra {@code zoo.cfg} properties
	 */
	public static TestingServer startServer(Map<String, Object> customProperties) throws Exception {
		return ZooKeeperServers.start(customProperties);
	}

	/**
	 * Starts a server whose container reaper empties a CONTAINER node within a second
	 * ({@link ZooKeeperServers#startFastReaping()}).
	 */
	static TestingServer startFastReapingServer() throws Exception {
		return ZooKeeperServers.startFastReaping();
	}

	/** The ZooKeeper path (inside the namespace) of a lock path's lock nodes. */
	static String basePath(String lockPath) {
		return ZKPaths.makePath(ROOT, lockPath);
	}

	/** The lock-node names under a lock path, in queue order; empty if the path does not exist. */
	static List<String> lockNodes(CuratorFramework client, String lockPath) {
		try {
			List<String> children = client.getChildren().forPath(basePath(lockPath));
			return LockNodeName.sortedLockNodes(children).stream().map(LockNodeName::name).toList();
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** All children (lock nodes or not) under a lock path; empty if the path does not exist. */
	static List<String> children(CuratorFramework client, String path) {
		try {
			return client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Waits until the lock path's lock nodes are exactly {@code names}, in queue order: a waiter
	 * that gives up answers first and deletes its node in the background (docs/lock-protocol.md,
	 * "A wait that runs out").
	 */
	static void awaitLockNodes(CuratorFramework client, String lockPath, String... names) {
		await().atMost(AWAIT).untilAsserted(() -> org.assertj.core.api.Assertions
			.assertThat(lockNodes(client, lockPath)).containsExactly(names));
	}

	/** Waits until {@code count} lock nodes are queued under the lock path. */
	static void awaitQueued(CuratorFramework client, String lockPath, int count) {
		await().atMost(AWAIT).until(() -> lockNodes(client, lockPath).size() == count);
	}

	static String fourLetterWord(TestingServer server, String word) {
		return FourLetterWords.send(server.getPort(), word)
			.orElseThrow(() -> new IllegalStateException("No answer to " + word + " on port " + server.getPort()));
	}

	/** The number of watches the server keeps, over all sessions ({@code mntr zk_watch_count}). */
	static int serverWatchCount(TestingServer server) {
		return (int) serverMetric(server, "zk_watch_count");
	}

	/**
	 * The requests the server has received from all clients ({@code mntr zk_packets_received});
	 * each {@code mntr} asked counts as one.
	 */
	static long serverPacketsReceived(TestingServer server) {
		return serverMetric(server, "zk_packets_received");
	}

	private static long serverMetric(TestingServer server, String name) {
		return FourLetterWords.metric(server.getPort(), name);
	}

	/** The paths the server keeps watches on, one entry per session and path ({@code wchc}). */
	static List<String> serverWatchedPaths(TestingServer server) {
		return FourLetterWords.watchedPaths(server.getPort());
	}

	/** The server-side watches on lock nodes, one entry per session and watched path. */
	static List<String> serverLockWatches(TestingServer server) {
		String prefix = "/" + NAMESPACE + ROOT + "/";
		return serverWatchedPaths(server).stream().filter((path) -> path.startsWith(prefix)).toList();
	}

	/**
	 * The Curator clients of one test, each standing for a separate process, and the threads
	 * that contend for locks in the background; {@link #close()} interrupts the threads and
	 * closes the clients.
	 */
	public static final class Clients implements AutoCloseable {

		private final TestingServer server;

		private final ExecutorService threads = Executors.newCachedThreadPool((r) -> {
			Thread thread = new Thread(r, "test-contender");
			thread.setDaemon(true);
			return thread;
		});

		private final List<CuratorFramework> clients = Collections.synchronizedList(new ArrayList<>());

		private final List<ExecutorService> executors = Collections.synchronizedList(new ArrayList<>());

		Clients(TestingServer server) {
			this.server = server;
		}

		/** A started client with the product's namespace. */
		public CuratorFramework newClient() {
			return newClient(NAMESPACE, null);
		}

		/**
		 * A started client.
		 * @param namespace the namespace, or {@code null} for none
		 * @param zookeeperFactory a factory for the ZooKeeper handle, or {@code null} for Curator's
		 */
		public CuratorFramework newClient(String namespace, ZookeeperFactory zookeeperFactory) {
			return newClient((builder) -> {
				builder.namespace(namespace);
				if (zookeeperFactory != null) {
					builder.zookeeperFactory(zookeeperFactory);
				}
			});
		}

		/**
		 * A started client with the product's namespace and the fixture's settings (30 s session,
		 * 10 s connection timeout, one retry), adjusted by {@code settings}.
		 */
		public CuratorFramework newClient(Consumer<CuratorFrameworkFactory.Builder> settings) {
			// Curator 5.9.0 leaks its SafeNotifyService thread on close: bring our own
			ExecutorService safeService = Executors.newSingleThreadExecutor((r) -> {
				Thread thread = new Thread(r, "test-curator-safe-notify");
				thread.setDaemon(true);
				return thread;
			});
			CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
				.connectString(this.server.getConnectString())
				.sessionTimeoutMs(30_000)
				.connectionTimeoutMs(10_000)
				.retryPolicy(new RetryOneTime(100))
				// no /zookeeper/config watch per client: the server's watch count is then the
				// lock watches alone
				.ensembleTracker(false)
				.namespace(NAMESPACE)
				.runSafeService(safeService);
			settings.accept(builder);
			CuratorFramework client = builder.build();
			client.start();
			this.executors.add(safeService);
			this.clients.add(client);
			try {
				if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
					throw new IllegalStateException("Client did not connect to " + this.server.getConnectString());
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			return client;
		}

		/** Runs {@code work} on a new background thread. */
		<T> Future<T> background(Callable<T> work) {
			return this.threads.submit(work);
		}

		@Override
		public void close() {
			this.threads.shutdownNow();
			List<CuratorFramework> toClose;
			synchronized (this.clients) {
				toClose = new ArrayList<>(this.clients);
				this.clients.clear();
			}
			for (CuratorFramework client : toClose) {
				client.close();
			}
			synchronized (this.executors) {
				this.executors.forEach(ExecutorService::shutdownNow);
				this.executors.clear();
			}
		}

	}

}
