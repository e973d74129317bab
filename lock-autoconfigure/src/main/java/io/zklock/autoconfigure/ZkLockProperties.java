package io.zklock.autoconfigure;

import java.time.Duration;

import io.zklock.annotation.OnLockLost;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * Configuration properties for zklock distributed locks.
 *
 * @author zklock
 */
@ConfigurationProperties("zklock")
public class ZkLockProperties {

	/**
	 * Whether to enable zklock's auto-configuration.
	 */
	private boolean enabled = true;

	/**
	 * ZooKeeper path, inside the client's namespace, under which lock paths live.
	 */
	private String rootPath = "/locks";

	/**
	 * How long @DistributedLock waits for a lock when the annotation sets no wait time.
	 */
	private Duration defaultWaitTime = Duration.ofSeconds(30);

	/**
	 * Order of the @DistributedLock interceptor; it must be lower than the transaction
	 * advisor's order so that the lock wraps the transaction.
	 */
	private int aspectOrder = Ordered.LOWEST_PRECEDENCE - 1;

	/**
	 * What a @DistributedLock method's interceptor does when the lock is lost or put in doubt
	 * while the method runs.
	 */
	private OnLockLost onLockLost = OnLockLost.FAIL;

	/**
	 * Whether a @DistributedLock method that runs inside a transaction it did not start keeps
	 * its lock until that transaction completes, so no other process reads uncommitted state
	 * under the lock.
	 */
	private boolean releaseAfterTransaction = true;

	/**
	 * Text every lock node carries as its data, to tell holders apart (for example the host
	 * and port of this instance). Empty for none; never the IP address by default.
	 */
	private String instanceId;

	private final Zookeeper zookeeper = new Zookeeper();

	/**
	 * The value of {@code zklock.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code zklock.enabled}.
	 * @param enabled the value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The value of {@code zklock.root-path}.
	 * @return the value
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Sets {@code zklock.root-path}.
	 * @param rootPath the value
	 */
	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * The value of {@code zklock.default-wait-time}.
	 * @return the value
	 */
	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	/**
	 * Sets {@code zklock.default-wait-time}.
	 * @param defaultWaitTime the value
	 */
	public void setDefaultWaitTime(Duration defaultWaitTime) {
		this.defaultWaitTime = defaultWaitTime;
	}

	/**
	 * The value of {@code zklock.aspect-order}.
	 * @return the value
	 */
	public int getAspectOrder() {
		return this.aspectOrder;
	}

	/**
	 * Sets {@code zklock.aspect-order}.
	 * @param aspectOrder the value
	 */
	public void setAspectOrder(int aspectOrder) {
		this.aspectOrder = aspectOrder;
	}

	/**
	 * The value of {@code zklock.on-lock-lost}.
	 * @return the value
	 */
	public OnLockLost getOnLockLost() {
		return this.onLockLost;
	}

	/**
	 * Sets {@code zklock.on-lock-lost}.
	 * @param onLockLost the value
	 */
	public void setOnLockLost(OnLockLost onLockLost) {
		this.onLockLost = onLockLost;
	}

	/**
	 * The value of {@code zklock.instance-id}.
	 * @return the value
	 */
	public String getInstanceId() {
		return this.instanceId;
	}

	/**
	 * Sets {@code zklock.instance-id}.
	 * @param instanceId the value
	 */
	public void setInstanceId(String instanceId) {
		this.instanceId = instanceId;
	}

	/**
	 * The value of {@code zklock.release-after-transaction}.
	 * @return the value
	 */
	public boolean isReleaseAfterTransaction() {
		return this.releaseAfterTransaction;
	}

	/**
	 * Sets {@code zklock.release-after-transaction}.
	 * @param releaseAfterTransaction the value
	 */
	public void setReleaseAfterTransaction(boolean releaseAfterTransaction) {
		this.releaseAfterTransaction = releaseAfterTransaction;
	}

	/**
	 * The {@code zklock.zookeeper.*} settings.
	 * @return the settings
	 */
	public Zookeeper getZookeeper() {
		return this.zookeeper;
	}

	/**
	 * ZooKeeper client settings.
	 */
	public static class Zookeeper {

		/**
		 * Comma-separated list of ZooKeeper servers as host:port pairs.
		 */
		private String connectString = "localhost:2181";

		/**
		 * Namespace (chroot) of the Curator client; all lock nodes live below it. Empty for
		 * none.
		 */
		private String namespace = "zklock";

		/**
		 * ZooKeeper session timeout; a holder whose process stops answering loses its locks
		 * this long after its last heartbeat.
		 */
		private Duration sessionTimeout = Duration.ofSeconds(60);

		/**
		 * Time to wait for a connection before an operation fails.
		 */
		private Duration connectionTimeout = Duration.ofSeconds(15);

		/**
		 * Time to wait at start-up for the ensemble to be reached before start-up fails.
		 */
		private Duration blockUntilConnected = Duration.ofSeconds(30);

		/**
		 * Which connection states put held locks in doubt: 'standard' (SUSPENDED and LOST) or
		 * 'session' (only LOST, that is an expired session).
		 */
		private ConnectionStateErrorPolicy connectionStateErrorPolicy = ConnectionStateErrorPolicy.STANDARD;

		private final Retry retry = new Retry();

		private final Embedded embedded = new Embedded();

		private final Auth auth = new Auth();

		private final Ssl ssl = new Ssl();

		/**
		 * The value of {@code zklock.zookeeper.connect-string}.
		 * @return the value
		 */
		public String getConnectString() {
			return this.connectString;
		}

		/**
		 * Sets {@code zklock.zookeeper.connect-string}.
		 * @param connectString the value
		 */
		public void setConnectString(String connectString) {
			this.connectString = connectString;
		}

		/**
		 * The value of {@code zklock.zookeeper.namespace}.
		 * @return the value
		 */
		public String getNamespace() {
			return this.namespace;
		}

		/**
		 * Sets {@code zklock.zookeeper.namespace}.
		 * @param namespace the value
		 */
		public void setNamespace(String namespace) {
			this.namespace = namespace;
		}

		/**
		 * The value of {@code zklock.zookeeper.session-timeout}.
		 * @return the value
		 */
		public Duration getSessionTimeout() {
			return this.sessionTimeout;
		}

		/**
		 * Sets {@code zklock.zookeeper.session-timeout}.
		 * @param sessionTimeout the value
		 */
		public void setSessionTimeout(Duration sessionTimeout) {
			this.sessionTimeout = sessionTimeout;
		}

		/**
		 * The value of {@code zklock.zookeeper.connection-timeout}.
		 * @return the value
		 */
		public Duration getConnectionTimeout() {
			return this.connectionTimeout;
		}

		/**
		 * Sets {@code zklock.zookeeper.connection-timeout}.
		 * @param connectionTimeout the value
		 */
		public void setConnectionTimeout(Duration connectionTimeout) {
			this.connectionTimeout = connectionTimeout;
		}

		/**
		 * The value of {@code zklock.zookeeper.block-until-connected}.
		 * @return the value
		 */
		public Duration getBlockUntilConnected() {
			return this.blockUntilConnected;
		}

		/**
		 * Sets {@code zklock.zookeeper.block-until-connected}.
		 * @param blockUntilConnected the value
		 */
		public void setBlockUntilConnected(Duration blockUntilConnected) {
			this.blockUntilConnected = blockUntilConnected;
		}

		/**
		 * The value of {@code zklock.zookeeper.connection-state-error-policy}.
		 * @return the value
		 */
		public ConnectionStateErrorPolicy getConnectionStateErrorPolicy() {
			return this.connectionStateErrorPolicy;
		}

		/**
		 * Sets {@code zklock.zookeeper.connection-state-error-policy}.
		 * @param connectionStateErrorPolicy the value
		 */
		public void setConnectionStateErrorPolicy(ConnectionStateErrorPolicy connectionStateErrorPolicy) {
			this.connectionStateErrorPolicy = connectionStateErrorPolicy;
		}

		/**
		 * The {@code zklock.zookeeper.retry.*} settings.
		 * @return the settings
		 */
		public Retry getRetry() {
			return this.retry;
		}

		/**
		 * The {@code zklock.zookeeper.auth.*} settings.
		 * @return the settings
		 */
		public Auth getAuth() {
			return this.auth;
		}

		/**
		 * The {@code zklock.zookeeper.ssl.*} settings.
		 * @return the settings
		 */
		public Ssl getSsl() {
			return this.ssl;
		}

		/**
		 * The {@code zklock.zookeeper.embedded.*} settings.
		 * @return the settings
		 */
		public Embedded getEmbedded() {
			return this.embedded;
		}

	}

	/**
	 * Retry policy of the Curator client: bounded exponential back-off.
	 */
	public static class Retry {

		/**
		 * Sleep before the first retry; later sleeps grow exponentially.
		 */
		private Duration baseSleep = Duration.ofMillis(100);

		/**
		 * Maximum number of retries of one ZooKeeper operation.
		 */
		private int maxRetries = 3;

		/**
		 * Upper bound of the sleep between two retries.
		 */
		private Duration maxSleep = Duration.ofSeconds(5);

		/**
		 * The value of {@code zklock.zookeeper.retry.base-sleep}.
		 * @return the value
		 */
		public Duration getBaseSleep() {
			return this.baseSleep;
		}

		/**
		 * Sets {@code zklock.zookeeper.retry.base-sleep}.
		 * @param baseSleep the value
		 */
		public void setBaseSleep(Duration baseSleep) {
			this.baseSleep = baseSleep;
		}

		/**
		 * The value of {@code zklock.zookeeper.retry.max-retries}.
		 * @return the value
		 */
		public int getMaxRetries() {
			return this.maxRetries;
		}

		/**
		 * Sets {@code zklock.zookeeper.retry.max-retries}.
		 * @param maxRetries the value
		 */
		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

		/**
		 * The value of {@code zklock.zookeeper.retry.max-sleep}.
		 * @return the value
		 */
		public Duration getMaxSleep() {
			return this.maxSleep;
		}

		/**
		 * Sets {@code zklock.zookeeper.retry.max-sleep}.
		 * @param maxSleep the value
		 */
		public void setMaxSleep(Duration maxSleep) {
			this.maxSleep = maxSleep;
		}

	}

	/**
	 * In-process ZooKeeper server, for development and demos.
	 */
	public static class Embedded {

		/**
		 * Whether to start an in-process ZooKeeper server and connect to it instead of
		 * connect-string. Locks then exclude only clients of this one server.
		 */
		private boolean enabled;

		/**
		 * Client port of the in-process server; 0 picks a free port.
		 */
		private int port;

		/**
		 * The value of {@code zklock.zookeeper.embedded.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code zklock.zookeeper.embedded.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * The value of {@code zklock.zookeeper.embedded.port}.
		 * @return the value
		 */
		public int getPort() {
			return this.port;
		}

		/**
		 * Sets {@code zklock.zookeeper.embedded.port}.
		 * @param port the value
		 */
		public void setPort(int port) {
			this.port = port;
		}

	}

	/**
	 * Connection-state error policies of the Curator client.
	 */
	public enum ConnectionStateErrorPolicy {

		/** SUSPENDED puts held locks in doubt and LOST loses them (Curator's default). */
		STANDARD,

		/** Only LOST (an expired session) loses held locks; SUSPENDED is ridden out. */
		SESSION

	}

	/**
	 * Authentication to ZooKeeper. With credentials set, lock nodes and their parents are
	 * created readable and writable only by these credentials.
	 */
	public static class Auth {

		/**
		 * Authentication scheme, such as 'digest'.
		 */
		private String scheme = "digest";

		/**
		 * Credentials for the scheme, such as 'user:password' for digest. Never logged.
		 */
		private String credentials;

		/**
		 * Whether start-up fails, instead of logging a warning, when the lock root lets
		 * anyone create or delete nodes under it.
		 */
		private boolean failOnOpenAcl;

		/**
		 * The value of {@code zklock.zookeeper.auth.scheme}.
		 * @return the value
		 */
		public String getScheme() {
			return this.scheme;
		}

		/**
		 * Sets {@code zklock.zookeeper.auth.scheme}.
		 * @param scheme the value
		 */
		public void setScheme(String scheme) {
			this.scheme = scheme;
		}

		/**
		 * The value of {@code zklock.zookeeper.auth.credentials}.
		 * @return the value
		 */
		public String getCredentials() {
			return this.credentials;
		}

		/**
		 * Sets {@code zklock.zookeeper.auth.credentials}.
		 * @param credentials the value
		 */
		public void setCredentials(String credentials) {
			this.credentials = credentials;
		}

		/**
		 * The value of {@code zklock.zookeeper.auth.fail-on-open-acl}.
		 * @return the value
		 */
		public boolean isFailOnOpenAcl() {
			return this.failOnOpenAcl;
		}

		/**
		 * Sets {@code zklock.zookeeper.auth.fail-on-open-acl}.
		 * @param failOnOpenAcl the value
		 */
		public void setFailOnOpenAcl(boolean failOnOpenAcl) {
			this.failOnOpenAcl = failOnOpenAcl;
		}

		/**
		 * Whether credentials are set.
		 * @return {@code true} if authentication is configured
		 */
		public boolean isConfigured() {
			return this.credentials != null && !this.credentials.isEmpty();
		}

	}

	/**
	 * TLS to ZooKeeper, configured on the client only (no JVM-wide system properties).
	 */
	public static class Ssl {

		/**
		 * Whether to connect to ZooKeeper's secure client port over TLS (Netty client socket).
		 */
		private boolean enabled;

		/**
		 * Whether to check that the server's certificate matches its host name.
		 */
		private boolean hostnameVerification = true;

		private final Store keyStore = new Store();

		private final Store trustStore = new Store();

		/**
		 * The value of {@code zklock.zookeeper.ssl.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code zklock.zookeeper.ssl.enabled}.
		 * @param enabled the value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * The value of {@code zklock.zookeeper.ssl.hostname-verification}.
		 * @return the value
		 */
		public boolean isHostnameVerification() {
			return this.hostnameVerification;
		}

		/**
		 * Sets {@code zklock.zookeeper.ssl.hostname-verification}.
		 * @param hostnameVerification the value
		 */
		public void setHostnameVerification(boolean hostnameVerification) {
			this.hostnameVerification = hostnameVerification;
		}

		/**
		 * The {@code zklock.zookeeper.ssl.key-store.*} settings.
		 * @return the settings
		 */
		public Store getKeyStore() {
			return this.keyStore;
		}

		/**
		 * The {@code zklock.zookeeper.ssl.trust-store.*} settings.
		 * @return the settings
		 */
		public Store getTrustStore() {
			return this.trustStore;
		}

	}

	/**
	 * A key store or trust store file.
	 */
	public static class Store {

		/**
		 * Path of the store file.
		 */
		private String location;

		/**
		 * Password of the store. Never logged.
		 */
		private String password;

		/**
		 * Type of the store: 'PKCS12', 'JKS' or 'PEM'; empty to detect it from the file name.
		 */
		private String type;

		/**
		 * The value of {@code zklock.zookeeper.ssl.key-store.location} or {@code zklock.zookeeper.ssl.trust-store.location}.
		 * @return the value
		 */
		public String getLocation() {
			return this.location;
		}

		/**
		 * Sets {@code zklock.zookeeper.ssl.key-store.location} or {@code zklock.zookeeper.ssl.trust-store.location}.
		 * @param location the value
		 */
		public void setLocation(String location) {
			this.location = location;
		}

		/**
		 * The value of {@code zklock.zookeeper.ssl.key-store.password} or {@code zklock.zookeeper.ssl.trust-store.password}.
		 * @return the value
		 */
		public String getPassword() {
			return this.password;
		}

		/**
		 * Sets {@code zklock.zookeeper.ssl.key-store.password} or {@code zklock.zookeeper.ssl.trust-store.password}.
		 * @param password the value
		 */
		public void setPassword(String password) {
			this.password = password;
		}

		/**
		 * The value of {@code zklock.zookeeper.ssl.key-store.type} or {@code zklock.zookeeper.ssl.trust-store.type}.
		 * @return the value
		 */
		public String getType() {
			return this.type;
		}

		/**
		 * Sets {@code zklock.zookeeper.ssl.key-store.type} or {@code zklock.zookeeper.ssl.trust-store.type}.
		 * @param type the value
		 */
		public void setType(String type) {
			this.type = type;
		}

	}

}
