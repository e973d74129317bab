package io.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/**
 * Builds and starts zklock's {@link CuratorFramework} from {@link ZkLockProperties}, and
 * fails with a message that names the ensemble and the property to change when the
 * ensemble cannot be reached in time.
 */
final class CuratorClientFactory {

	private final ZkLockProperties.Zookeeper properties;

	private final String rootPath;

	private final String connectString;

	CuratorClientFactory(ZkLockProperties properties, String connectString) {
		this.properties = properties.getZookeeper();
		this.rootPath = properties.getRootPath();
		this.connectString = connectString;
	}

	CuratorFramework createAndStart(ExecutorService safeNotifyExecutor, List<CuratorFrameworkCustomizer> customizers) {
		ZkLockProperties.Retry retry = this.properties.getRetry();
		String namespace = this.properties.getNamespace();
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(this.connectString)
			.namespace((namespace != null && !namespace.isBlank()) ? namespace : null)
			.sessionTimeoutMs(toMillis(this.properties.getSessionTimeout(), "zklock.zookeeper.session-timeout"))
			.connectionTimeoutMs(
					toMillis(this.properties.getConnectionTimeout(), "zklock.zookeeper.connection-timeout"))
			.retryPolicy(new BoundedExponentialBackoffRetry(
					toMillis(retry.getBaseSleep(), "zklock.zookeeper.retry.base-sleep"),
					toMillis(retry.getMaxSleep(), "zklock.zookeeper.retry.max-sleep"), retry.getMaxRetries()))
			.runSafeService(safeNotifyExecutor)
			.connectionStateErrorPolicy(
					(this.properties.getConnectionStateErrorPolicy() == ZkLockProperties.ConnectionStateErrorPolicy.SESSION)
							? new SessionConnectionStateErrorPolicy() : new StandardConnectionStateErrorPolicy())
			.zkClientConfig(ZooKeeperTlsConfig.create(this.properties.getSsl()));
		ZkLockProperties.Auth auth = this.properties.getAuth();
		if (auth.isConfigured()) {
			builder.authorization(auth.getScheme(), auth.getCredentials().getBytes(StandardCharsets.UTF_8))
				.aclProvider(new LockNodeAclProvider(builder.getNamespace(), this.rootPath));
		}
		customizers.forEach((customizer) -> customizer.customize(builder));
		CuratorFramework client = builder.build();
		client.start();
		long waitMillis = this.properties.getBlockUntilConnected().toMillis();
		boolean connected;
		try {
			connected = client.blockUntilConnected((int) Math.min(waitMillis, Integer.MAX_VALUE),
					TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			client.close();
			throw new ZooKeeperConnectionException(this.connectString,
					"Interrupted while connecting to ZooKeeper at '" + this.connectString + "'.",
					"Start the application again.", ex);
		}
		if (!connected) {
			client.close();
			throw new ZooKeeperConnectionException(this.connectString,
					"Could not connect to the ZooKeeper ensemble at '" + this.connectString + "' within "
							+ this.properties.getBlockUntilConnected().toMillis() + " ms"
							+ (this.properties.getSsl().isEnabled() ? " over TLS." : "."),
					"Check that the ensemble is running and reachable and that zklock.zookeeper.connect-string is "
							+ "right" + (this.properties.getSsl().isEnabled()
									? " and serves TLS on that port (zklock.zookeeper.ssl.*)" : "")
							+ "; to wait longer at start-up, raise zklock.zookeeper.block-until-connected.",
					null);
		}
		return client;
	}

	private static int toMillis(java.time.Duration duration, String property) {
		if (duration == null || duration.isNegative() || duration.toMillis() > Integer.MAX_VALUE) {
			throw new ZkLockConfigurationException(property, "Invalid " + property + "=" + duration + ".",
					"Set " + property + " to a positive duration such as '15s'.", null);
		}
		return (int) duration.toMillis();
	}

}
