package io.zklock.fault.harness;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZookeeperFactory;

/**
 * Curator clients of the test JVM itself, built as the contenders build theirs (namespace
 * {@code zklock}, no ensemble tracking, so a connect string naming some members or a proxy stays
 * as given), for tests whose lock engines must be reached from the test: hooks on the ZooKeeper
 * handle, two engines on one client. Closing closes every client it started.
 *
 * <p>
 * Thread-safe.
 */
public final class InJvmClients implements AutoCloseable {

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	/**
	 * Starts a client and waits for its session.
	 * @param connectString the members (or a proxy) it may connect to
	 * @param sessionTimeout its session timeout
	 * @param connectionTimeout Curator's connection timeout, which also bounds how long a background
	 * request waits for a connection before Curator's retries count it as failed
	 * @param retries how often Curator retries a request (100 ms apart)
	 * @param handles where its ZooKeeper handles come from, or {@code null} for ZooKeeper's own
	 * @return the connected client
	 * @throws IllegalStateException if no session is made within 30 s
	 */
	public CuratorFramework start(String connectString, Duration sessionTimeout, Duration connectionTimeout,
			int retries, ZookeeperFactory handles) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace("zklock")
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs((int) connectionTimeout.toMillis())
			.retryPolicy(new RetryNTimes(retries, 100))
			.ensembleTracker(false);
		if (handles != null) {
			builder.zookeeperFactory(handles);
		}
		CuratorFramework client = builder.build();
		this.clients.add(client);
		client.start();
		if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("No ZooKeeper session with " + connectString + " within 30 s");
		}
		return client;
	}

	@Override
	public void close() {
		this.clients.forEach(CuratorFramework::close);
		this.clients.clear();
	}

}
