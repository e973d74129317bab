package io.zklock.fault.contender;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * A child process's ZooKeeper session, built as an application would build it: a Curator client
 * in the namespace {@code zklock} with the standard connection-state error policy (SUSPENDED puts
 * held locks in doubt), a connection timeout of half the session timeout, and no ensemble tracking,
 * so that the connect string (possibly a black-hole proxy) stays as given. Curator's safe
 * notifications run on a daemon thread of their own. Shared by the contender and leader processes.
 */
public final class ChildSession implements AutoCloseable {

	private final ExecutorService safeService = Executors.newSingleThreadExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "curator-safe-notify");
		thread.setDaemon(true);
		return thread;
	});

	private final CuratorFramework client;

	/**
	 * Connects and waits for the session.
	 * @param connectString the ensemble, possibly through this process's proxy
	 * @param sessionTimeout the session timeout
	 * @param beforeStart adds listeners to the client before it starts
	 * @throws IllegalStateException if no connection is made within twice the session timeout
	 * @throws InterruptedException if interrupted while waiting for it
	 */
	public ChildSession(String connectString, Duration sessionTimeout, Consumer<CuratorFramework> beforeStart)
			throws InterruptedException {
		int sessionMs = (int) sessionTimeout.toMillis();
		this.client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace("zklock")
			.sessionTimeoutMs(sessionMs)
			.connectionTimeoutMs(sessionMs / 2)
			.retryPolicy(new RetryNTimes(3, 100))
			// Curator's ensemble tracker would replace the connect string with the members' own
			// addresses from /zookeeper/config, bypassing the process's black-hole proxy
			.ensembleTracker(false)
			.runSafeService(this.safeService)
			.build();
		beforeStart.accept(this.client);
		this.client.start();
		if (!this.client.blockUntilConnected(2 * sessionMs, TimeUnit.MILLISECONDS)) {
			close();
			throw new IllegalStateException("No ZooKeeper session with " + connectString + " within " + 2 * sessionMs
					+ " ms");
		}
	}

	/** The started client. */
	public CuratorFramework client() {
		return this.client;
	}

	/** The current session id in hex, or {@code none}. */
	public String sessionId() {
		try {
			return Long.toHexString(this.client.getZookeeperClient().getZooKeeper().getSessionId());
		}
		catch (Exception ex) {
			return "none";
		}
	}

	@Override
	public void close() {
		this.client.close();
		this.safeService.shutdownNow();
	}

}
