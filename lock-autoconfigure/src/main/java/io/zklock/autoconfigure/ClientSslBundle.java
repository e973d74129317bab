package io.zklock.autoconfigure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;

/**
 * The SSL bundle ({@code zklock.zookeeper.ssl.bundle}) that zklock's own ZooKeeper client takes its TLS material
 * from, if one is named: resolved from Spring Boot's {@link SslBundles} at start-up, copied into that one client's
 * configuration ({@link SslBundleStoreFiles}; no JVM-wide system property, no registry shared between clients),
 * followed when Spring Boot reloads it ({@code reload-on-update}), and deleted when the context closes, after the
 * client (the client's bean depends on this one).
 *
 * <p>
 * On a reload the copy is rewritten, so every later connection attempt of the client uses the new material, and,
 * unless {@code zklock.zookeeper.ssl.reconnect-on-bundle-update=false}, the client's connection is closed at once:
 * ZooKeeper reconnects with the same session and the new material. Until the reconnection is confirmed, held locks
 * are in doubt as after any disconnection. Curator itself drops connections through the same
 * {@link ZooKeeper#getTestable()} hook. Thread-safe.
 */
final class ClientSslBundle implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ClientSslBundle.class);

	private final @Nullable String name;

	private final @Nullable SslBundles bundles;

	private final @Nullable SslBundle bundle;

	private final boolean reconnectOnUpdate;

	private @Nullable SslBundleStoreFiles files;

	private @Nullable CuratorFramework client;

	private boolean closed;

	private ClientSslBundle(@Nullable String name, @Nullable SslBundles bundles, @Nullable SslBundle bundle,
			boolean reconnectOnUpdate) {
		this.name = name;
		this.bundles = bundles;
		this.bundle = bundle;
		this.reconnectOnUpdate = reconnectOnUpdate;
	}

	/**
	 * Resolves the bundle {@code zklock.zookeeper.ssl.bundle} names.
	 * @param ssl the {@code zklock.zookeeper.ssl.*} settings
	 * @param bundles Spring Boot's bundles, or {@code null} if the application has none
	 * @param checks builds the exception for an unknown bundle name
	 * @return the bundle, or one that is not {@link #isConfigured() configured} if no bundle is named
	 * @throws ZkLockStartupException if store files are set too, or the application has no {@link SslBundles}
	 * @throws org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException if no
	 * bundle has that name
	 */
	static ClientSslBundle resolve(ZkLockProperties.ZooKeeper.Ssl ssl, @Nullable SslBundles bundles,
			ZkLockPropertyChecks checks) {
		String bundle = ssl.getBundle();
		if (bundle == null || !ssl.hasBundle()) {
			return new ClientSslBundle(null, null, null, false);
		}
		String name = bundle.trim();
		rejectStoreFiles(ssl, name);
		if (bundles == null) {
			throw new ZkLockStartupException(
					"zklock.zookeeper.ssl.bundle=" + name + " is set, but the application has no SslBundles bean.",
					"Keep Spring Boot's SslAutoConfiguration (it defines the bundles of spring.ssl.bundle.*), or "
							+ "remove zklock.zookeeper.ssl.bundle.",
					null);
		}
		try {
			return new ClientSslBundle(name, bundles, bundles.getBundle(name), ssl.isReconnectOnBundleUpdate());
		}
		catch (NoSuchSslBundleException ex) {
			List<String> defined = bundles.getBundleNames();
			throw checks.invalid("zklock.zookeeper.ssl.bundle", name,
					"no SSL bundle has that name; define it under spring.ssl.bundle.jks." + name
							+ ".* or spring.ssl.bundle.pem." + name + ".* ("
							+ (defined.isEmpty() ? "no bundle is defined" : "defined: " + String.join(", ", defined))
							+ ")");
		}
	}

	/** Both a bundle and store files: the client would have two sources of material. */
	private static void rejectStoreFiles(ZkLockProperties.ZooKeeper.Ssl ssl, String name) {
		List<String> set = new ArrayList<>();
		addSet(set, "zklock.zookeeper.ssl.key-store", ssl.getKeyStore());
		addSet(set, "zklock.zookeeper.ssl.trust-store", ssl.getTrustStore());
		if (set.isEmpty()) {
			return;
		}
		throw new ZkLockStartupException(
				"zklock.zookeeper.ssl.bundle=" + name + " and " + String.join(", ", set)
						+ " are both set: zklock's ZooKeeper client takes its TLS material either from an SSL "
						+ "bundle or from key and trust store files, not from both.",
				"Remove zklock.zookeeper.ssl.key-store.* and zklock.zookeeper.ssl.trust-store.* (give their files to "
						+ "the bundle instead: spring.ssl.bundle.jks." + name + ".keystore.location and .truststore."
						+ "location), or remove zklock.zookeeper.ssl.bundle.",
				null);
	}

	private static void addSet(List<String> set, String prefix, ZkLockProperties.ZooKeeper.Ssl.Store store) {
		if (store.getLocation() != null && !store.getLocation().isBlank()) {
			set.add(prefix + ".location=" + store.getLocation());
		}
		if (store.getPassword() != null) {
			set.add(prefix + ".password");
		}
		if (store.getType() != null && !store.getType().isBlank()) {
			set.add(prefix + ".type=" + store.getType());
		}
	}

	/**
	 * Whether a bundle is named.
	 * @return whether {@code zklock.zookeeper.ssl.bundle} is set
	 */
	boolean isConfigured() {
		return this.bundle != null;
	}

	/**
	 * Points one client's configuration at this bundle's material (written on the first call) and carries over
	 * the bundle's protocol, enabled protocols and ciphers.
	 * @param config the client's configuration
	 * @param x509 the names of ZooKeeper's client TLS settings
	 * @throws ZkLockStartupException if the material cannot be read or written
	 */
	synchronized void applyTo(ZKClientConfig config, ClientX509Util x509) {
		SslBundle current = this.bundle;
		if (current == null) {
			return;
		}
		if (this.files == null) {
			this.files = SslBundleStoreFiles.write(bundleName(), current);
		}
		SslBundleStoreFiles stores = this.files;
		config.setProperty(x509.getSslKeystoreLocationProperty(), stores.keyStore().toString());
		config.setProperty(x509.getSslKeystorePasswdProperty(), stores.password());
		config.setProperty(x509.getSslKeystoreTypeProperty(), SslBundleStoreFiles.TYPE);
		config.setProperty(x509.getSslTruststoreLocationProperty(), stores.trustStore().toString());
		config.setProperty(x509.getSslTruststorePasswdProperty(), stores.password());
		config.setProperty(x509.getSslTruststoreTypeProperty(), SslBundleStoreFiles.TYPE);
		// a password file set JVM-wide would win over the password (X509Util reads the file if one is named)
		config.setProperty(x509.getSslKeystorePasswdPathProperty(), "");
		config.setProperty(x509.getSslTruststorePasswdPathProperty(), "");
		SslOptions options = current.getOptions();
		if (options.getEnabledProtocols() != null) {
			config.setProperty(x509.getSslEnabledProtocolsProperty(), String.join(",", options.getEnabledProtocols()));
		}
		if (options.getCiphers() != null) {
			config.setProperty(x509.getSslCipherSuitesProperty(), String.join(",", options.getCiphers()));
		}
		// Spring Boot's default "TLS" names no version; ZooKeeper's client enables exactly the protocol it is
		// given, so only a version (such as TLSv1.2) is carried over
		if (current.getProtocol() != null && !SslBundle.DEFAULT_PROTOCOL.equals(current.getProtocol())) {
			config.setProperty(x509.getSslProtocolProperty(), current.getProtocol());
		}
	}

	/**
	 * Follows the bundle's reloads for this client, from now on.
	 * @param client the client whose configuration {@link #applyTo} set, started
	 */
	void follow(CuratorFramework client) {
		if (this.bundle == null || this.bundles == null) {
			return;
		}
		synchronized (this) {
			this.client = client;
		}
		this.bundles.addBundleUpdateHandler(bundleName(), this::updated);
	}

	/** The name of the bundle, which a client with a bundle always has. */
	private String bundleName() {
		return Objects.requireNonNull(this.name, "an SSL bundle comes with its name");
	}

	private void updated(SslBundle updated) {
		CuratorFramework current;
		synchronized (this) {
			if (this.closed || this.files == null) {
				return;
			}
			try {
				this.files.update(updated);
			}
			catch (ZkLockStartupException ex) {
				logger.error("SSL bundle '" + this.name + "' was reloaded, but zklock's ZooKeeper client keeps the "
						+ "material it had: " + ex.getDescription() + " " + ex.getAction(), ex);
				return;
			}
			current = this.client;
		}
		if (!this.reconnectOnUpdate || current == null) {
			logger.info("SSL bundle '" + this.name + "' was reloaded: zklock's ZooKeeper client uses the new material "
					+ "from its next connection on (zklock.zookeeper.ssl.reconnect-on-bundle-update=false).");
			return;
		}
		logger.info("SSL bundle '" + this.name + "' was reloaded: zklock's ZooKeeper client reconnects with the new "
				+ "material, keeping its session; held locks are in doubt until the connection is back.");
		try {
			ZooKeeper zooKeeper = current.getZookeeperClient().getZooKeeper();
			zooKeeper.getTestable().closeSocket();
		}
		catch (IOException ex) {
			logger.warn("zklock's ZooKeeper client could not drop its connection after SSL bundle '" + this.name
					+ "' was reloaded; the new material serves from its next connection on.", ex);
		}
		catch (Exception ex) {
			logger.warn("zklock's ZooKeeper client is not connected; the new material of SSL bundle '" + this.name
					+ "' serves when it connects again.", ex);
		}
	}

	/** Deletes the client's copy of the material; later reloads are ignored. */
	@Override
	public synchronized void close() {
		this.closed = true;
		this.client = null;
		if (this.files != null) {
			this.files.close();
		}
	}

	/** The client's copy of the material, once written; for tests. */
	synchronized @Nullable SslBundleStoreFiles files() {
		return this.files;
	}

	@Override
	public String toString() {
		return (this.name != null) ? "SSL bundle '" + this.name + "'" : "no SSL bundle";
	}

}
