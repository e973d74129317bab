package io.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.logging.LoggingSystem;

/**
 * Builds and starts zklock's {@link CuratorFramework} from {@link ZkLockProperties}. Checks
 * the connect string and durations first, so a typo fails at once; says in one INFO line where
 * it connects and how long start-up waits for it (otherwise an unreachable ensemble would
 * leave the log silent for that long); while the client connects, the ZooKeeper client's
 * retry logs are silenced ({@link ClientConnectLogs}), and when the ensemble cannot be reached
 * in time, start-up fails with a message that names the ensemble, what each server did, and
 * the property to change.
 */
final class CuratorClientFactory {

	private static final Log logger = LogFactory.getLog(CuratorClientFactory.class);

	private final ZkLockProperties.ZooKeeper properties;

	private final String rootPath;

	private final ZkLockConnectionDetails connectionDetails;

	private final ZkLockPropertyChecks checks;

	private final @Nullable LoggingSystem loggingSystem;

	private final ClientSslBundle sslBundle;

	/**
	 * Creates the factory.
	 * @param properties zklock's properties
	 * @param connectionDetails where the ensemble is
	 * @param checks checks property values and builds the exceptions for invalid ones
	 * @param loggingSystem the application's logging system, to silence the client while it
	 * connects; {@code null} to leave logging alone
	 * @param sslBundle the SSL bundle the client takes its TLS material from, if one is named
	 */
	CuratorClientFactory(ZkLockProperties properties, ZkLockConnectionDetails connectionDetails,
			ZkLockPropertyChecks checks, @Nullable LoggingSystem loggingSystem, ClientSslBundle sslBundle) {
		this.properties = properties.getZookeeper();
		this.rootPath = properties.getRootPath();
		this.connectionDetails = connectionDetails;
		this.checks = checks;
		this.loggingSystem = loggingSystem;
		this.sslBundle = sslBundle;
	}

	CuratorFramework createAndStart(ExecutorService safeNotifyExecutor, List<CuratorFrameworkCustomizer> customizers) {
		String connectString = this.connectionDetails.getConnectString();
		ConnectString ensemble = parse(connectString);
		// from here on the ZooKeeper client logs (its TLS utilities as soon as its configuration exists)
		Runnable restoreLogs = ClientConnectLogs.silence(this.loggingSystem);
		try {
			int waitMillis = this.checks.millis("zklock.zookeeper.block-until-connected",
					this.properties.getBlockUntilConnected(), "30s");
			ZKClientConfig clientConfig = ZooKeeperTlsConfig.create(this.properties.getSsl(), this.sslBundle,
					this.checks);
			CuratorFramework client = build(connectString, customizers, safeNotifyExecutor, clientConfig);
			logger.info("Connecting to the ZooKeeper ensemble at '" + connectString + "'"
					+ (this.properties.getSsl().isTls() ? " over TLS" : "") + "; start-up waits up to " + waitMillis
					+ " ms for it (zklock.zookeeper.block-until-connected).");
			if (connect(client, connectString, waitMillis)) {
				this.sslBundle.follow(client);
				return client;
			}
			throw unreachable(connectString, ensemble, waitMillis, clientConfig);
		}
		finally {
			restoreLogs.run();
		}
	}

	private CuratorFramework build(String connectString, List<CuratorFrameworkCustomizer> customizers,
			ExecutorService safeNotifyExecutor, ZKClientConfig clientConfig) {
		ZkLockProperties.ZooKeeper.Retry retry = this.properties.getRetry();
		String namespace = this.properties.getNamespace();
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace((namespace != null && !namespace.isBlank()) ? namespace : null)
			.sessionTimeoutMs(this.checks.millis("zklock.zookeeper.session-timeout",
					this.properties.getSessionTimeout(), "60s"))
			.connectionTimeoutMs(this.checks.millis("zklock.zookeeper.connection-timeout",
					this.properties.getConnectionTimeout(), "15s"))
			.retryPolicy(new BoundedExponentialBackoffRetry(
					this.checks.millis("zklock.zookeeper.retry.base-sleep", retry.getBaseSleep(), "100ms"),
					this.checks.millis("zklock.zookeeper.retry.max-sleep", retry.getMaxSleep(), "5s"),
					this.checks.count("zklock.zookeeper.retry.max-retries", retry.getMaxRetries())))
			.runSafeService(safeNotifyExecutor)
			.connectionStateErrorPolicy((this.properties
				.getConnectionStateErrorPolicy() == ZkLockProperties.ZooKeeper.ConnectionStateErrorPolicy.SESSION)
						? new SessionConnectionStateErrorPolicy() : new StandardConnectionStateErrorPolicy())
			.zkClientConfig(clientConfig);
		ZkLockProperties.ZooKeeper.Auth auth = this.properties.getAuth();
		String credentials = auth.getCredentials();
		if (credentials != null && auth.isConfigured()) {
			builder.authorization(auth.getScheme(), credentials.getBytes(StandardCharsets.UTF_8))
				.aclProvider(new LockNodeAclProvider(builder.getNamespace(), this.rootPath));
		}
		customizers.forEach((customizer) -> customizer.customize(builder));
		return builder.build();
	}

	/** Starts the client and waits for it; closes it unless it connected. */
	private static boolean connect(CuratorFramework client, String connectString, int waitMillis) {
		boolean connected = false;
		try {
			client.start();
			connected = client.blockUntilConnected(waitMillis, TimeUnit.MILLISECONDS);
			return connected;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ZooKeeperConnectionException(connectString,
					"Interrupted while connecting to ZooKeeper at '" + connectString + "'.",
					"Start the application again.", ex);
		}
		finally {
			if (!connected) {
				client.close();
			}
		}
	}

	private ConnectString parse(String connectString) {
		try {
			return ConnectString.parse(connectString);
		}
		catch (IllegalArgumentException ex) {
			String rule = "write host:port pairs separated by commas, optionally followed by a chroot path, such as "
					+ "'zk1:2181,zk2:2181,zk3:2181' or 'zk1:2181/apps'";
			if (this.connectionDetails instanceof PropertiesZkLockConnectionDetails) {
				throw this.checks.invalid("zklock.zookeeper.connect-string", connectString,
						ex.getMessage() + "; " + rule + ", or set zklock.zookeeper.embedded.enabled=true for an "
								+ "in-process server");
			}
			throw new ZkLockStartupException(
					"The ZooKeeper connect string '" + connectString + "' of the "
							+ this.connectionDetails.getClass().getName() + " bean is invalid: " + ex.getMessage() + ".",
					"Make the ZkLockConnectionDetails bean return a valid connect string: " + rule + ".", ex);
		}
	}

	private ZooKeeperConnectionException unreachable(String connectString, ConnectString ensemble, int waitMillis,
			ZKClientConfig clientConfig) {
		boolean tls = this.properties.getSsl().isTls();
		return new ZooKeeperConnectionException(connectString,
				"Could not connect to the ZooKeeper ensemble at '" + connectString + "' within " + waitMillis + " ms"
						+ (tls ? " over TLS" : "") + " ("
						+ EnsembleProbe.describe(ensemble.servers(), tls ? clientConfig : null) + ").",
				"Check that the ensemble is running and reachable and that zklock.zookeeper.connect-string is right"
						+ (tls ? " and serves TLS on that port with a certificate that the client trusts and that "
								+ "names the host or address the connect string gives (zklock.zookeeper.ssl.*)" : "")
						+ "; to wait longer at start-up, raise zklock.zookeeper.block-until-connected.",
				null);
	}

}
