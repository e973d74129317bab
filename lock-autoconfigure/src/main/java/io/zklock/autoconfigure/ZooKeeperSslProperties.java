package io.zklock.autoconfigure;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * TLS to ZooKeeper, {@code zklock.zookeeper.ssl.*}, configured on the client only (no JVM-wide system properties).
 * The key and trust material comes either from an SSL bundle ({@code bundle}) or from store files
 * ({@code key-store.*}, {@code trust-store.*}), never from both.
 */
public class ZooKeeperSslProperties {

	/**
	 * Whether to connect to ZooKeeper's secure client port over TLS (Netty client socket). Naming a bundle turns
	 * TLS on too.
	 */
	private boolean enabled;

	/**
	 * Name of the SSL bundle (spring.ssl.bundle.jks.* or spring.ssl.bundle.pem.*) to take the key and trust
	 * material from, instead of key-store and trust-store.
	 */
	private String bundle;

	/**
	 * Whether to check that the server's certificate matches the host name or address the client connects to.
	 */
	private boolean hostnameVerification = true;

	/**
	 * Whether hostname verification may fall back to a reverse DNS lookup of the server's address when the
	 * certificate does not name that address. Whoever controls those DNS records can then pass for the server
	 * with any trusted certificate (CVE-2026-24281).
	 */
	private boolean allowReverseDnsLookup;

	/**
	 * Whether the client reconnects at once, keeping its session, when the SSL bundle is reloaded; otherwise the
	 * new material serves from its next connection on.
	 */
	private boolean reconnectOnBundleUpdate = true;

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
	 * Whether TLS is on: {@code zklock.zookeeper.ssl.enabled}, or a bundle is named.
	 * @return whether the client connects over TLS
	 */
	public boolean isTls() {
		return this.enabled || hasBundle();
	}

	/**
	 * The value of {@code zklock.zookeeper.ssl.bundle}.
	 * @return the bundle's name, or {@code null}
	 */
	public String getBundle() {
		return this.bundle;
	}

	/**
	 * Sets {@code zklock.zookeeper.ssl.bundle}.
	 * @param bundle the bundle's name
	 */
	public void setBundle(String bundle) {
		this.bundle = bundle;
	}

	/**
	 * Whether {@code zklock.zookeeper.ssl.bundle} names a bundle.
	 * @return whether it is set and not blank
	 */
	public boolean hasBundle() {
		return this.bundle != null && !this.bundle.isBlank();
	}

	/**
	 * The value of {@code zklock.zookeeper.ssl.allow-reverse-dns-lookup}.
	 * @return the value
	 */
	public boolean isAllowReverseDnsLookup() {
		return this.allowReverseDnsLookup;
	}

	/**
	 * Sets {@code zklock.zookeeper.ssl.allow-reverse-dns-lookup}.
	 * @param allowReverseDnsLookup the value
	 */
	public void setAllowReverseDnsLookup(boolean allowReverseDnsLookup) {
		this.allowReverseDnsLookup = allowReverseDnsLookup;
	}

	/**
	 * The value of {@code zklock.zookeeper.ssl.reconnect-on-bundle-update}.
	 * @return the value
	 */
	public boolean isReconnectOnBundleUpdate() {
		return this.reconnectOnBundleUpdate;
	}

	/**
	 * Sets {@code zklock.zookeeper.ssl.reconnect-on-bundle-update}.
	 * @param reconnectOnBundleUpdate the value
	 */
	public void setReconnectOnBundleUpdate(boolean reconnectOnBundleUpdate) {
		this.reconnectOnBundleUpdate = reconnectOnBundleUpdate;
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
