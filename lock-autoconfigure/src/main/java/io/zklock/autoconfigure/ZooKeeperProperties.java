package io.zklock.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * ZooKeeper client settings, {@code zklock.zookeeper.*}: a group of {@link ZkLockProperties}.
 */
public class ZooKeeperProperties {

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

	@NestedConfigurationProperty
	private final ZooKeeperRetryProperties retry = new ZooKeeperRetryProperties();

	@NestedConfigurationProperty
	private final EmbeddedZooKeeperProperties embedded = new EmbeddedZooKeeperProperties();

	@NestedConfigurationProperty
	private final ZooKeeperAuthProperties auth = new ZooKeeperAuthProperties();

	@NestedConfigurationProperty
	private final ZooKeeperSslProperties ssl = new ZooKeeperSslProperties();

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
	public ZooKeeperRetryProperties getRetry() {
		return this.retry;
	}

	/**
	 * The {@code zklock.zookeeper.auth.*} settings.
	 * @return the settings
	 */
	public ZooKeeperAuthProperties getAuth() {
		return this.auth;
	}

	/**
	 * The {@code zklock.zookeeper.ssl.*} settings.
	 * @return the settings
	 */
	public ZooKeeperSslProperties getSsl() {
		return this.ssl;
	}

	/**
	 * The {@code zklock.zookeeper.embedded.*} settings.
	 * @return the settings
	 */
	public EmbeddedZooKeeperProperties getEmbedded() {
		return this.embedded;
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

}
