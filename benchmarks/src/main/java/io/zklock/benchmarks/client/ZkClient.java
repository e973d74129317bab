package io.zklock.benchmarks.client;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * One ZooKeeper session: a started Curator client without a namespace, standing for one
 * process of a service. Every library under test gets clients built the same way. The client
 * has its own safe-notify executor, shut down on {@link #close()} (Curator 5.9.0 leaks its
 * default one).
 */
public final class ZkClient implements AutoCloseable {

	private static final int SESSION_TIMEOUT_MS = 60_000;

	private static final int CONNECTION_TIMEOUT_MS = 15_000;

	private final CuratorFramework curator;

	private final ExecutorService safeNotify;

	private ZkClient(CuratorFramework curator, ExecutorService safeNotify) {
		this.curator = curator;
		this.safeNotify = safeNotify;
	}

	/**
	 * Starts a client and waits until it is connected.
	 * @param connectString the server's connect string
	 * @return the connected client
	 * @throws IllegalStateException if it does not connect within 30 s
	 * @throws InterruptedException if interrupted while connecting
	 */
	public static ZkClient connect(String connectString) throws InterruptedException {
		return connect(connectString, SESSION_TIMEOUT_MS);
	}

	/**
	 * Starts a client with a session timeout of its own (the pause test's) and waits until it is
	 * connected.
	 * @param connectString the server's connect string
	 * @param sessionTimeoutMs the session timeout to ask for
	 * @return the connected client
	 * @throws IllegalStateException if it does not connect within 30 s
	 * @throws InterruptedException if interrupted while connecting
	 */
	public static ZkClient connect(String connectString, int sessionTimeoutMs) throws InterruptedException {
		ExecutorService safeNotify = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "bench-curator-safe-notify");
			thread.setDaemon(true);
			return thread;
		});
		CuratorFramework curator = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeoutMs)
			.connectionTimeoutMs(CONNECTION_TIMEOUT_MS)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.runSafeService(safeNotify)
			.build();
		curator.start();
		if (!curator.blockUntilConnected(30, TimeUnit.SECONDS)) {
			curator.close();
			safeNotify.shutdownNow();
			throw new IllegalStateException("Could not connect to ZooKeeper at " + connectString + " within 30 s");
		}
		return new ZkClient(curator, safeNotify);
	}

	/**
	 * The Curator client.
	 * @return the started client
	 */
	public CuratorFramework curator() {
		return this.curator;
	}

	@Override
	public void close() {
		this.curator.close();
		this.safeNotify.shutdownNow();
	}

}
