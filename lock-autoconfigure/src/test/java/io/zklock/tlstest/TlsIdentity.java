package io.zklock.tlstest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A key pair with a self-signed certificate, made by the JDK's {@code keytool} for a test, and the files a TLS
 * setting wants of it: a PKCS12 or JKS key store, PEM certificate and PEM (PKCS#8) private key, and trust stores
 * holding certificates of chosen identities. Elliptic-curve keys (P-256), valid for two days.
 */
public final class TlsIdentity {

	/** The password of every store written here. */
	public static final String PASSWORD = "changeit";

	private final String name;

	private final Path pkcs12;

	private TlsIdentity(String name, Path pkcs12) {
		this.name = name;
		this.pkcs12 = pkcs12;
	}

	/**
	 * Makes identities at once, one {@code keytool} process each.
	 * @param dir where the files go
	 * @param sanByName each identity's name (its certificate's CN, its key's alias) and subject alternative names,
	 * in keytool's form such as {@code "dns:localhost"}, or {@code ""} for none
	 * @return the identities, by name
	 */
	public static Map<String, TlsIdentity> createAll(Path dir, Map<String, String> sanByName) throws Exception {
		Map<String, Process> processes = new LinkedHashMap<>();
		for (Map.Entry<String, String> entry : sanByName.entrySet()) {
			String name = entry.getKey();
			List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
				.toString(), "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
					"-dname", "CN=" + name, "-keystore", dir.resolve(name + ".p12").toString(), "-storetype", "PKCS12",
					"-storepass", PASSWORD, "-keypass", PASSWORD));
			if (!entry.getValue().isEmpty()) {
				command.addAll(List.of("-ext", "SAN=" + entry.getValue()));
			}
			processes.put(name, new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(dir.resolve(name + ".keytool.log").toFile())
				.start());
		}
		Map<String, TlsIdentity> identities = new LinkedHashMap<>();
		for (Map.Entry<String, Process> entry : processes.entrySet()) {
			Process process = entry.getValue();
			if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException("keytool failed for " + entry.getKey() + ": "
						+ Files.readString(dir.resolve(entry.getKey() + ".keytool.log")));
			}
			identities.put(entry.getKey(), new TlsIdentity(entry.getKey(), dir.resolve(entry.getKey() + ".p12")));
		}
		return identities;
	}

	/** The identity's name: its certificate's CN and its key's alias. */
	public String name() {
		return this.name;
	}

	/** The subject of its certificate as ZooKeeper's x509 authentication reports it, such as {@code CN=alice}. */
	public String subject() {
		return certificate().getSubjectX500Principal().getName();
	}

	/** Its PKCS12 key store (password {@link #PASSWORD}). */
	public Path pkcs12() {
		return this.pkcs12;
	}

	/**
	 * Its key store as a JKS file next to the PKCS12 one.
	 * @return the file (password {@link #PASSWORD})
	 */
	public Path jks() throws Exception {
		KeyStore jks = KeyStore.getInstance("JKS");
		jks.load(null, null);
		jks.setKeyEntry(this.name, privateKey(), PASSWORD.toCharArray(), new Certificate[] { certificate() });
		return store(jks, this.pkcs12.resolveSibling(this.name + ".jks"));
	}

	/** Its certificate. */
	public X509Certificate certificate() {
		try {
			return (X509Certificate) load().getCertificate(this.name);
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private PrivateKey privateKey() throws GeneralSecurityException, IOException {
		return (PrivateKey) load().getKey(this.name, PASSWORD.toCharArray());
	}

	/** Its certificate as a PEM file. */
	public Path certificatePem() throws Exception {
		return pem(this.pkcs12.resolveSibling(this.name + ".crt"), "CERTIFICATE", certificate().getEncoded());
	}

	/** Its private key as an unencrypted PKCS#8 PEM file. */
	public Path privateKeyPem() throws Exception {
		return pem(this.pkcs12.resolveSibling(this.name + ".key"), "PRIVATE KEY", privateKey().getEncoded());
	}

	/**
	 * Writes a trust store holding the certificates of the given identities.
	 * @param file the store to write
	 * @param type {@code PKCS12} or {@code JKS}
	 * @param trusted the identities to trust
	 * @return the file (password {@link #PASSWORD})
	 */
	public static Path trustStore(Path file, String type, TlsIdentity... trusted) throws Exception {
		KeyStore store = KeyStore.getInstance(type);
		store.load(null, null);
		for (TlsIdentity identity : trusted) {
			store.setCertificateEntry(identity.name(), identity.certificate());
		}
		return store(store, file);
	}

	private KeyStore load() throws GeneralSecurityException, IOException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(this.pkcs12)) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	private static Path store(KeyStore store, Path file) throws Exception {
		try (OutputStream out = Files.newOutputStream(file)) {
			store.store(out, PASSWORD.toCharArray());
		}
		return file;
	}

	private static Path pem(Path file, String label, byte[] der) throws IOException {
		String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
		Files.writeString(file, "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n");
		return file;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
