package io.zklock.autoconfigure;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * TLS to ZooKeeper, {@code zklock.zookeeper.ssl.*}, configured on the client only (no JVM-wide system properties).
 */
public class ZooKeeperSslProperties {

	/**
	 * Whether to connect to ZooKeeper's secure client port over TLS (Netty client socket).
	 */
	private boolean enabled;

	/**
	 * Whether to check that the server's certificate matches its host name.
	 */
	private boolean hostnameVerification = true;

	@NestedConfigurationProperty
	private final TlsStoreProperties keyStore = new TlsStoreProperties();

	@NestedConfigurationProperty
	private final TlsStoreProperties trustStore = new TlsStoreProperties();

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
	public TlsStoreProperties getKeyStore() {
		return this.keyStore;
	}

	/**
	 * The {@code zklock.zookeeper.ssl.trust-store.*} settings.
	 * @return the settings
	 */
	public TlsStoreProperties getTrustStore() {
		return this.trustStore;
	}

}
