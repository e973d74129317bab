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

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getRootPath() {
		return this.rootPath;
	}

	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	public void setDefaultWaitTime(Duration defaultWaitTime) {
		this.defaultWaitTime = defaultWaitTime;
	}

	public int getAspectOrder() {
		return this.aspectOrder;
	}

	public void setAspectOrder(int aspectOrder) {
		this.aspectOrder = aspectOrder;
	}

	public OnLockLost getOnLockLost() {
		return this.onLockLost;
	}

	public void setOnLockLost(OnLockLost onLockLost) {
		this.onLockLost = onLockLost;
	}

	public String getInstanceId() {
		return this.instanceId;
	}

	public void setInstanceId(String instanceId) {
		this.instanceId = instanceId;
	}

	public boolean isReleaseAfterTransaction() {
		return this.releaseAfterTransaction;
	}

	public void setReleaseAfterTransaction(boolean releaseAfterTransaction) {
		this.releaseAfterTransaction = releaseAfterTransaction;
	}

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

		public String getConnectString() {
			return this.connectString;
		}

		public void setConnectString(String connectString) {
			this.connectString = connectString;
		}

		public String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(String namespace) {
			this.namespace = namespace;
		}

		public Duration getSessionTimeout() {
			return this.sessionTimeout;
		}

		public void setSessionTimeout(Duration sessionTimeout) {
			this.sessionTimeout = sessionTimeout;
		}

		public Duration getConnectionTimeout() {
			return this.connectionTimeout;
		}

		public void setConnectionTimeout(Duration connectionTimeout) {
			this.connectionTimeout = connectionTimeout;
		}

		public Duration getBlockUntilConnected() {
			return this.blockUntilConnected;
		}

		public void setBlockUntilConnected(Duration blockUntilConnected) {
			this.blockUntilConnected = blockUntilConnected;
		}

		public ConnectionStateErrorPolicy getConnectionStateErrorPolicy() {
			return this.connectionStateErrorPolicy;
		}

		public void setConnectionStateErrorPolicy(ConnectionStateErrorPolicy connectionStateErrorPolicy) {
			this.connectionStateErrorPolicy = connectionStateErrorPolicy;
		}

		public Retry getRetry() {
			return this.retry;
		}

		public Auth getAuth() {
			return this.auth;
		}

		public Ssl getSsl() {
			return this.ssl;
		}

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

		public Duration getBaseSleep() {
			return this.baseSleep;
		}

		public void setBaseSleep(Duration baseSleep) {
			this.baseSleep = baseSleep;
		}

		public int getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

		public Duration getMaxSleep() {
			return this.maxSleep;
		}

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

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return this.port;
		}

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

		public String getScheme() {
			return this.scheme;
		}

		public void setScheme(String scheme) {
			this.scheme = scheme;
		}

		public String getCredentials() {
			return this.credentials;
		}

		public void setCredentials(String credentials) {
			this.credentials = credentials;
		}

		public boolean isFailOnOpenAcl() {
			return this.failOnOpenAcl;
		}

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

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isHostnameVerification() {
			return this.hostnameVerification;
		}

		public void setHostnameVerification(boolean hostnameVerification) {
			this.hostnameVerification = hostnameVerification;
		}

		public Store getKeyStore() {
			return this.keyStore;
		}

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

		public String getLocation() {
			return this.location;
		}

		public void setLocation(String location) {
			this.location = location;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public String getType() {
			return this.type;
		}

		public void setType(String type) {
			this.type = type;
		}

	}

}
