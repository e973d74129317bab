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

		private final Retry retry = new Retry();

		private final Embedded embedded = new Embedded();

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

		public Retry getRetry() {
			return this.retry;
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

}
