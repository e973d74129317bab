package io.zklock.autoconfigure;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslStoreBundle;

/**
 * One ZooKeeper client's copy of an SSL bundle's key and trust material, as two PKCS12 files that ZooKeeper's
 * client reads by path.
 *
 * <p>
 * Why files: ZooKeeper 3.9.5's TLS client ({@code ClientCnxnSocketNetty}) builds its {@code SslContext} on every
 * connection attempt with {@code ClientX509Util.createNettySslContextForClient(ZKClientConfig)}, which reads only
 * {@code zookeeper.ssl.keyStore.*} and {@code zookeeper.ssl.trustStore.*} (a location, a password, a type) from
 * that client's own {@link org.apache.zookeeper.client.ZKClientConfig}. It never consults
 * {@code zookeeper.ssl.context.supplier.class}: only {@code X509Util.createSSLContextAndOptions}, used by the
 * server and quorum sockets, does, and it instantiates the supplier with no argument, so a supplier could not know
 * which client it serves anyway. The client socket class itself is package-private. A per-client copy of the
 * material, named by that client's own configuration, is therefore the one way to hand a bundle to one client and
 * not to another.
 *
 * <p>
 * The files live in a directory of their own, readable by this process's user only (on POSIX file systems), are
 * encrypted with a random password that exists only in memory (in the client's configuration), and are deleted
 * when the client closes ({@link #close()}). The key store holds the bundle's key entries (only the one named by
 * {@code key.alias} if set), the trust store its trusted certificates, or the JVM's default trust anchors if the
 * bundle has no trust store; either may be empty. Each write replaces the files atomically, so a connection
 * attempt reads either the old or the new material. Thread-safe.
 */
final class SslBundleStoreFiles implements AutoCloseable {

	static final String TYPE = "PKCS12";

	private final String bundleName;

	private final Path directory;

	private final Path keyStore;

	private final Path trustStore;

	private final String password;

	private boolean closed;

	private SslBundleStoreFiles(String bundleName, Path directory) {
		this.bundleName = bundleName;
		this.directory = directory;
		this.keyStore = directory.resolve("key-store.p12");
		this.trustStore = directory.resolve("trust-store.p12");
		byte[] random = new byte[24];
		new SecureRandom().nextBytes(random);
		this.password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
	}

	/**
	 * Writes the bundle's material into a new private directory.
	 * @param bundleName the bundle's name, for messages
	 * @param bundle the bundle
	 * @return the files
	 * @throws ZkLockStartupException if the material cannot be read or written
	 */
	static SslBundleStoreFiles write(String bundleName, SslBundle bundle) {
		Path directory;
		try {
			directory = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
					? Files.createTempDirectory("zklock-tls-",
							PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
					: Files.createTempDirectory("zklock-tls-");
		}
		catch (IOException ex) {
			throw new ZkLockStartupException(
					"Could not create a directory for the TLS material of SSL bundle '" + bundleName + "': "
							+ ex.getMessage() + ".",
					"Make the temporary directory (java.io.tmpdir=" + System.getProperty("java.io.tmpdir")
							+ ") writable.",
					ex);
		}
		SslBundleStoreFiles files = new SslBundleStoreFiles(bundleName, directory);
		try {
			files.update(bundle);
			return files;
		}
		catch (RuntimeException ex) {
			files.close();
			throw ex;
		}
	}

	/** The key store file. */
	Path keyStore() {
		return this.keyStore;
	}

	/** The trust store file. */
	Path trustStore() {
		return this.trustStore;
	}

	/** The password of both files. */
	String password() {
		return this.password;
	}

	/**
	 * Replaces the files with the bundle's current material.
	 * @param bundle the bundle, as loaded or reloaded by Spring Boot
	 * @throws ZkLockStartupException if the material cannot be read or written
	 */
	synchronized void update(SslBundle bundle) {
		if (this.closed) {
			return;
		}
		char[] secret = this.password.toCharArray();
		replace(this.keyStore, keyEntries(bundle, secret), secret);
		replace(this.trustStore, trustEntries(bundle.getStores()), secret);
	}

	private KeyStore keyEntries(SslBundle bundle, char[] secret) {
		KeyStore source = bundle.getStores().getKeyStore();
		KeyStore copy = emptyStore();
		if (source == null) {
			return copy;
		}
		SslBundleKey key = bundle.getKey();
		// Spring Boot's own rule (DefaultSslManagerBundle): the key's password, else the store's
		String keyPassword = (key.getPassword() != null) ? key.getPassword()
				: bundle.getStores().getKeyStorePassword();
		try {
			List<String> aliases = (key.getAlias() != null) ? List.of(key.getAlias())
					: Collections.list(source.aliases());
			if (key.getAlias() != null) {
				key.assertContainsAlias(source);
			}
			for (String alias : aliases) {
				if (!source.isKeyEntry(alias)) {
					continue;
				}
				Key privateKey = source.getKey(alias, (keyPassword != null) ? keyPassword.toCharArray() : null);
				Certificate[] chain = source.getCertificateChain(alias);
				if (privateKey instanceof PrivateKey && chain != null) {
					copy.setKeyEntry(alias, privateKey, secret, chain);
				}
			}
			return copy;
		}
		catch (GeneralSecurityException | IllegalStateException ex) {
			throw new ZkLockStartupException(
					"The key of SSL bundle '" + this.bundleName + "' cannot be read: " + ex.getMessage() + ".",
					"Check the bundle's key settings (spring.ssl.bundle.*." + this.bundleName
							+ ".key.alias and .key.password) against its key store.",
					ex);
		}
	}

	private KeyStore trustEntries(SslStoreBundle stores) {
		KeyStore copy = emptyStore();
		try {
			KeyStore source = stores.getTrustStore();
			if (source == null) {
				int i = 0;
				for (X509Certificate anchor : defaultTrustAnchors()) {
					copy.setCertificateEntry("jvm-" + i++, anchor);
				}
				return copy;
			}
			// as the JDK's trust managers read a store: certificate entries, and the first certificate of
			// each key entry's chain
			for (String alias : Collections.list(source.aliases())) {
				if (source.isCertificateEntry(alias)) {
					copy.setCertificateEntry(alias, source.getCertificate(alias));
				}
				else if (source.isKeyEntry(alias)) {
					Certificate[] chain = source.getCertificateChain(alias);
					if (chain != null && chain.length > 0) {
						copy.setCertificateEntry(alias, chain[0]);
					}
				}
			}
			return copy;
		}
		catch (GeneralSecurityException ex) {
			throw new ZkLockStartupException(
					"The trust material of SSL bundle '" + this.bundleName + "' cannot be read: " + ex.getMessage()
							+ ".",
					"Check the bundle's trust store settings (spring.ssl.bundle.*." + this.bundleName
							+ ".truststore.*).",
					ex);
		}
	}

	private static X509Certificate[] defaultTrustAnchors() throws GeneralSecurityException {
		TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		factory.init((KeyStore) null);
		for (var manager : factory.getTrustManagers()) {
			if (manager instanceof X509TrustManager x509) {
				return x509.getAcceptedIssuers();
			}
		}
		return new X509Certificate[0];
	}

	private static KeyStore emptyStore() {
		try {
			KeyStore store = KeyStore.getInstance(TYPE);
			store.load(null, null);
			return store;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException("The JDK cannot create a " + TYPE + " key store", ex);
		}
	}

	private void replace(Path target, KeyStore content, char[] secret) {
		Path next = this.directory.resolve(target.getFileName() + ".next");
		try {
			try (OutputStream out = Files.newOutputStream(next)) {
				content.store(out, secret);
			}
			Files.move(next, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new ZkLockStartupException(
					"Could not write the TLS material of SSL bundle '" + this.bundleName + "' to " + target + ": "
							+ ex.getMessage() + ".",
					"Make the temporary directory (java.io.tmpdir=" + System.getProperty("java.io.tmpdir")
							+ ") writable.",
					ex);
		}
	}

	/** Deletes the files and their directory; later updates do nothing. */
	@Override
	public synchronized void close() {
		this.closed = true;
		for (Path path : new Path[] { this.keyStore, this.trustStore, this.keyStore.resolveSibling("key-store.p12.next"),
				this.trustStore.resolveSibling("trust-store.p12.next"), this.directory }) {
			try {
				Files.deleteIfExists(path);
			}
			catch (IOException ex) {
				// best effort: the files are encrypted with a password that dies with this process
			}
		}
	}

	@Override
	public String toString() {
		return "TLS material of SSL bundle '" + this.bundleName + "' in " + this.directory;
	}

	/** The directory of the files. */
	Path directory() {
		return this.directory;
	}

}
