package io.zklock.autoconfigure;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Locale;

import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

/**
 * Builds the {@link ZKClientConfig} of zklock's client from
 * {@code zklock.zookeeper.ssl.*}: TLS over the Netty client socket, with the key and trust
 * material set on this client only, never as JVM-wide system properties, from an SSL bundle
 * ({@link ClientSslBundle}) or from store files. Hostname verification and ZooKeeper's
 * reverse-DNS fallback ({@code zookeeper.ssl.allowReverseDnsLookup}, ZOOKEEPER-4986, new in
 * 3.9.5) are always set explicitly, so a JVM-wide {@code zookeeper.ssl.*} system property
 * (which a new {@link ZKClientConfig} copies) cannot turn them. Store files are opened up
 * front so that a wrong path or password fails start-up with a clear message instead of a
 * connection that never comes up: a missing file as an invalid {@code …location} value, a
 * store that does not open (wrong password or type) as a {@link ZkLockStartupException}.
 */
final class ZooKeeperTlsConfig {

	private static final String NETTY_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";

	private ZooKeeperTlsConfig() {
	}

	static ZKClientConfig create(ZkLockProperties.ZooKeeper.Ssl ssl, ClientSslBundle bundle,
			ZkLockPropertyChecks checks) {
		ZKClientConfig config = new ZKClientConfig();
		if (!ssl.isTls()) {
			return config;
		}
		config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
		config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, NETTY_SOCKET);
		try (ClientX509Util x509 = new ClientX509Util()) {
			config.setProperty(x509.getSslHostnameVerificationEnabledProperty(),
					Boolean.toString(ssl.isHostnameVerification()));
			config.setProperty(x509.getSslAllowReverseDnsLookupProperty(),
					Boolean.toString(ssl.isAllowReverseDnsLookup()));
			if (!ssl.isAllowReverseDnsLookup() && !SaslClientSection.isConfigured(config)) {
				// ZooKeeper's SASL client (on by default) asks for each server's host name before connecting
				// (SaslServerPrincipal.getServerPrincipal calls InetSocketAddress.getHostName()): for an address,
				// a reverse DNS lookup, whose answer then becomes the host the TLS client verifies the certificate
				// against, the fallback of CVE-2026-24281 by another road. With no JAAS section for the client,
				// SASL would not authenticate anyway.
				config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
			}
			if (bundle.isConfigured()) {
				bundle.applyTo(config, x509);
				return config;
			}
			apply(config, ssl.getKeyStore(), "zklock.zookeeper.ssl.key-store", checks,
					x509.getSslKeystoreLocationProperty(), x509.getSslKeystorePasswdProperty(),
					x509.getSslKeystoreTypeProperty());
			apply(config, ssl.getTrustStore(), "zklock.zookeeper.ssl.trust-store", checks,
					x509.getSslTruststoreLocationProperty(), x509.getSslTruststorePasswdProperty(),
					x509.getSslTruststoreTypeProperty());
		}
		return config;
	}

	private static void apply(ZKClientConfig config, ZkLockProperties.ZooKeeper.Ssl.Store store, String prefix,
			ZkLockPropertyChecks checks, String locationKey, String passwordKey, String typeKey) {
		if (store.getLocation() == null || store.getLocation().isBlank()) {
			return;
		}
		Path path = Path.of(store.getLocation());
		if (!Files.isReadable(path)) {
			throw checks.invalid(prefix + ".location", store.getLocation(),
					"the file does not exist or cannot be read; point it at a readable PKCS12, JKS or PEM file");
		}
		check(store, path, prefix);
		config.setProperty(locationKey, store.getLocation());
		if (store.getPassword() != null) {
			config.setProperty(passwordKey, store.getPassword());
		}
		if (store.getType() != null && !store.getType().isBlank()) {
			config.setProperty(typeKey, store.getType());
		}
	}

	/** Opens a PKCS12 or JKS store with its password (PEM files are read by ZooKeeper). */
	private static void check(ZkLockProperties.ZooKeeper.Ssl.Store store, Path path, String prefix) {
		String type = (store.getType() != null && !store.getType().isBlank()) ? store.getType()
				: typeFromName(path.getFileName().toString());
		if (type == null || type.equalsIgnoreCase("PEM")) {
			return;
		}
		try (InputStream in = Files.newInputStream(path)) {
			KeyStore keyStore = KeyStore.getInstance(type.toUpperCase(Locale.ROOT));
			keyStore.load(in, (store.getPassword() != null) ? store.getPassword().toCharArray() : null);
		}
		catch (Exception ex) {
			throw new ZkLockStartupException(
					"The TLS store " + prefix + ".location=" + store.getLocation() + " cannot be opened as " + type
							+ ": " + ex.getMessage() + ".",
					"Check " + prefix + ".password, and " + prefix + ".type if the file is not a " + type + " store.",
					ex);
		}
	}

	private static @Nullable String typeFromName(String name) {
		String lower = name.toLowerCase(Locale.ROOT);
		if (lower.endsWith(".p12") || lower.endsWith(".pfx") || lower.endsWith(".pkcs12")) {
			return "PKCS12";
		}
		if (lower.endsWith(".jks")) {
			return "JKS";
		}
		if (lower.endsWith(".pem")) {
			return "PEM";
		}
		return null;
	}

}
