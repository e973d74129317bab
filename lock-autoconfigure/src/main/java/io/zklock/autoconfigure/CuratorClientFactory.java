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
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import io.zklock.internal.Durations;
import io.zklock.lock.inspection.SessionTimeoutCheck;

import org.springframework.boot.logging.LoggingSystem;

/**
 * Builds and starts zklock's {@link CuratorFramework} from {@link ZkLockProperties}. Checks
 * the connect string and durations first, so a typo fails at once; says in one INFO line where
 * it connects and how long start-up waits for it (otherwise an unreachable ensemble would
 * leave the log silent for that long); while the client connects, the ZooKeeper client's
 * retry logs are silenced ({@link ClientConnectLogs}), and when the ensemble cannot be reached
 * in time, start-up fails with a message that names the ensemble, what each server did, and
 * the property to change. Each session whose timeout the servers grant otherwise than
 * {@code zklock.zookeeper.session-timeout} asks is reported in a WARN ({@link SessionTimeoutCheck}).
 */
final class CuratorClientFactory {

	private static final Log logger = LogFactory.getLog(CuratorClientFactory.class);

	/** The default of {@code zklock.zookeeper.connect-string}. */
	private static final String DEFAULT_CONNECT_STRING = new ZkLockProperties.ZooKeeper().getConnectString();

	/** The most retries of Curator's {@code ExponentialBackoffRetry} ({@code MAX_RETRIES_LIMIT}). */
	private static final int MAX_RETRIES = 29;

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
			int waitMillis = this.checks.positiveMillis("zklock.zookeeper.block-until-connected",
					this.properties.getBlockUntilConnected(), "30s",
					"start-up would give up before the first connection is made");
			ZKClientConfig clientConfig = ZooKeeperTlsConfig.create(this.properties.getSsl(), this.sslBundle,
					this.checks);
			CuratorFramework client = build(connectString, customizers, safeNotifyExecutor, clientConfig);
			warnIfDefault(connectString);
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
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace(namespace(this.properties.getNamespace()))
			.sessionTimeoutMs(this.checks.positiveMillis("zklock.zookeeper.session-timeout",
					this.properties.getSessionTimeout(), "60s",
					"a ZooKeeper session needs a timeout, and the client would never establish one"))
			.connectionTimeoutMs(this.checks.positiveMillis("zklock.zookeeper.connection-timeout",
					this.properties.getConnectionTimeout(), "15s",
					"every operation would fail at once whenever the connection drops"))
			.retryPolicy(retryPolicy(this.properties.getRetry()))
			.runSafeService(safeNotifyExecutor)
			.connectionStateErrorPolicy((this.properties
				.getConnectionStateErrorPolicy() == ZkLockProperties.ZooKeeper.ConnectionStateErrorPolicy.SESSION)
						? new SessionConnectionStateErrorPolicy() : new StandardConnectionStateErrorPolicy())
			.zkClientConfig(clientConfig);
		ZkLockProperties.ZooKeeper.Auth auth = this.properties.getAuth();
		String credentials = auth.getCredentials();
		if (credentials != null && auth.isConfigured()) {
			if (auth.getScheme() == null || auth.getScheme().isBlank()) {
				throw this.checks.invalid("zklock.zookeeper.auth.scheme", auth.getScheme(),
						"it is empty, and zklock.zookeeper.auth.credentials needs a scheme; set one, such as 'digest' "
								+ "(the default)");
			}
			builder.authorization(auth.getScheme(), credentials.getBytes(StandardCharsets.UTF_8))
				.aclProvider(new LockNodeAclProvider(builder.getNamespace(), this.rootPath));
		}
		customizers.forEach((customizer) -> customizer.customize(builder));
		// around whatever factory a customizer set: a WARN per session the servers grant another timeout
		SessionTimeoutCheck.install(builder, "zklock.zookeeper.session-timeout");
		return builder.build();
	}

	/**
	 * Warns when the connect string is the property's default because nothing set it: an
	 * instance whose configuration did not reach it (a profile not activated, a typo in a
	 * property name) would otherwise lock on whatever ZooKeeper runs on its own host, and exclude
	 * no other instance, without a word.
	 */
	private void warnIfDefault(String connectString) {
		if (this.connectionDetails instanceof PropertiesZkLockConnectionDetails
				&& DEFAULT_CONNECT_STRING.equals(connectString)
				&& !this.checks.isSet("zklock.zookeeper.connect-string")) {
			logger.warn("zklock.zookeeper.connect-string is not set, so zklock connects to its default, "
					+ DEFAULT_CONNECT_STRING + ": locks then exclude only the clients of a ZooKeeper on this host, not "
					+ "the other instances of the application. Set zklock.zookeeper.connect-string to the ensemble's "
					+ "host:port pairs (zklock.zookeeper.embedded.enabled=true starts an in-process server for "
					+ "development instead).");
		}
	}

	/**
	 * The namespace, checked as Curator would (it fails with a bare {@code IllegalArgumentException}
	 * while the client is built), with the fix.
	 * @return the namespace, or {@code null} for none
	 */
	private @Nullable String namespace(@Nullable String namespace) {
		if (namespace == null || namespace.isBlank()) {
			return null;
		}
		String name = "zklock.zookeeper.namespace";
		String example = "such as 'zklock' or 'apps/orders', or leave it empty for none";
		if (namespace.startsWith("/") || namespace.endsWith("/")) {
			String trimmed = namespace.replaceAll("^/+|/+$", "");
			throw this.checks.invalid(name, namespace, "it " + (namespace.startsWith("/") ? "starts" : "ends")
					+ " with '/', and a namespace is a path below the ensemble's root written without a leading or "
					+ "trailing '/'; write " + (trimmed.isEmpty() ? "names separated by '/', " + example
							: "'" + trimmed + "'"));
		}
		try {
			PathUtils.validatePath("/" + namespace);
		}
		catch (IllegalArgumentException ex) {
			throw this.checks.invalid(name, namespace,
					"ZooKeeper refuses it as a path (" + ex.getMessage() + "); write names separated by '/', without "
							+ "empty names, '.' or '..', " + example);
		}
		return namespace;
	}

	/**
	 * The retry policy, its settings checked: a base sleep longer than the bound of every sleep,
	 * and more retries than Curator's back-off allows (it would pin them to 29 with a WARN of its
	 * own), are refused.
	 */
	private BoundedExponentialBackoffRetry retryPolicy(ZkLockProperties.ZooKeeper.Retry retry) {
		int baseSleep = this.checks.millis("zklock.zookeeper.retry.base-sleep", retry.getBaseSleep(), "100ms");
		int maxSleep = this.checks.millis("zklock.zookeeper.retry.max-sleep", retry.getMaxSleep(), "5s");
		int maxRetries = this.checks.count("zklock.zookeeper.retry.max-retries", retry.getMaxRetries());
		if (baseSleep > maxSleep) {
			throw this.checks.invalid("zklock.zookeeper.retry.base-sleep", retry.getBaseSleep(),
					"it is longer than zklock.zookeeper.retry.max-sleep (" + Durations.format(retry.getMaxSleep())
							+ "), which bounds every sleep between retries; set it shorter, such as '100ms'");
		}
		if (maxRetries > MAX_RETRIES) {
			throw this.checks.invalid("zklock.zookeeper.retry.max-retries", maxRetries,
					"it is more than " + MAX_RETRIES + ", the most retries Curator's exponential back-off makes; set "
							+ MAX_RETRIES + " or fewer");
		}
		return new BoundedExponentialBackoffRetry(baseSleep, maxSleep, maxRetries);
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
