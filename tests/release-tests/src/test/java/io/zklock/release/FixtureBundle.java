package io.zklock.release;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Date;
import java.util.HexFormat;
import java.util.function.UnaryOperator;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/**
 * A small deployment bundle as central-publishing-maven-plugin writes one, in Maven repository layout:
 * a parent POM ({@code io.zklock.fixture:fixture-parent:1.0.0}, with url, licenses, scm and developers)
 * and a jar artifact that inherits them ({@code io.zklock.fixture:fixture-lib:1.0.0}, with its sources
 * and javadoc jars). Every file is signed with a throwaway OpenPGP key made for the test run (Bouncy
 * Castle, in memory: no key is kept anywhere) and has its {@code .md5} and {@code .sha1}. Tests break
 * one rule at a time with {@link #rewrite} and {@link #delete}.
 */
final class FixtureBundle {

	static final String PARENT_POM = "io/zklock/fixture/fixture-parent/1.0.0/fixture-parent-1.0.0.pom";

	static final String LIB = "io/zklock/fixture/fixture-lib/1.0.0/fixture-lib-1.0.0";

	static final String LIB_POM = LIB + ".pom";

	static final String LIB_JAR = LIB + ".jar";

	private static final Key KEY = Key.generate();

	private final Path root;

	private FixtureBundle(Path root) {
		this.root = root;
	}

	/**
	 * Writes a bundle that Central would take into an empty folder.
	 * @param root the folder, which becomes the bundle's root
	 * @return the bundle
	 * @throws IOException if it cannot be written
	 */
	static FixtureBundle write(Path root) throws IOException {
		FixtureBundle bundle = new FixtureBundle(root);
		bundle.put(PARENT_POM, parentPom().getBytes(StandardCharsets.UTF_8));
		bundle.put(LIB_POM, libPom("").getBytes(StandardCharsets.UTF_8));
		bundle.put(LIB_JAR, jar("io/zklock/fixture/Lib.class", new byte[] { (byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE }));
		bundle.put(LIB + "-sources.jar", jar("io/zklock/fixture/Lib.java", "class Lib {}".getBytes(StandardCharsets.UTF_8)));
		bundle.put(LIB + "-javadoc.jar", jar("index.html", "<html></html>".getBytes(StandardCharsets.UTF_8)));
		return bundle;
	}

	/**
	 * The bundle's folder.
	 * @return the root folder
	 */
	Path root() {
		return this.root;
	}

	/**
	 * Writes (or replaces) a file with its signature and checksums.
	 * @param file the path in the bundle
	 * @param content its bytes
	 * @throws IOException if it cannot be written
	 */
	void put(String file, byte[] content) throws IOException {
		Path path = this.root.resolve(file);
		Files.createDirectories(path.getParent());
		Files.write(path, content);
		Files.writeString(this.root.resolve(file + ".asc"), KEY.sign(content), StandardCharsets.US_ASCII);
		Files.writeString(this.root.resolve(file + ".md5"), digest("MD5", content), StandardCharsets.US_ASCII);
		Files.writeString(this.root.resolve(file + ".sha1"), digest("SHA-1", content), StandardCharsets.US_ASCII);
	}

	/**
	 * Replaces a file's content and its checksums but keeps its old signature, as a file changed after
	 * signing.
	 * @param file the path in the bundle
	 * @param content the new bytes
	 * @throws IOException if it cannot be written
	 */
	void tamper(String file, byte[] content) throws IOException {
		Files.write(this.root.resolve(file), content);
		Files.writeString(this.root.resolve(file + ".md5"), digest("MD5", content), StandardCharsets.US_ASCII);
		Files.writeString(this.root.resolve(file + ".sha1"), digest("SHA-1", content), StandardCharsets.US_ASCII);
	}

	/**
	 * Changes a text file (a POM) and signs it again, so that only the change breaks a rule.
	 * @param file the path in the bundle
	 * @param change from the old text to the new
	 * @throws IOException if it cannot be read or written
	 */
	void rewrite(String file, UnaryOperator<String> change) throws IOException {
		String text = Files.readString(this.root.resolve(file));
		String changed = change.apply(text);
		if (changed.equals(text)) {
			throw new IllegalArgumentException("the change leaves " + file + " as it was");
		}
		put(file, changed.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Deletes one file of the bundle (a signature, a checksum, a jar).
	 * @param file the path in the bundle
	 * @throws IOException if it cannot be deleted
	 */
	void delete(String file) throws IOException {
		Files.delete(this.root.resolve(file));
	}

	/**
	 * Zips the bundle as central-publishing-maven-plugin does (entries relative to the root).
	 * @param zip the zip file to write
	 * @return the zip file
	 * @throws IOException if it cannot be written
	 */
	Path zip(Path zip) throws IOException {
		try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip)); Stream<Path> files = Files.walk(this.root)) {
			for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
				out.putNextEntry(new ZipEntry(this.root.relativize(file).toString().replace('\\', '/')));
				Files.copy(file, out);
				out.closeEntry();
			}
		}
		return zip;
	}

	/**
	 * The throwaway key's public half, ASCII-armored, for {@code gpg --import}.
	 * @return the public key block
	 */
	static String publicKey() {
		return KEY.publicKey();
	}

	static String parentPom() {
		return """
				<?xml version="1.0" encoding="UTF-8"?>
				<project xmlns="http://maven.apache.org/POM/4.0.0">
				    <modelVersion>4.0.0</modelVersion>
				    <groupId>io.zklock.fixture</groupId>
				    <artifactId>fixture-parent</artifactId>
				    <version>1.0.0</version>
				    <packaging>pom</packaging>
				    <name>fixture-parent</name>
				    <description>The parent of the fixture bundle</description>
				    <url>https://example.org/fixture</url>
				    <licenses>
				        <license>
				            <name>Apache License, Version 2.0</name>
				            <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
				        </license>
				    </licenses>
				    <developers>
				        <developer>
				            <id>fixture</id>
				            <name>Fixture Maintainers</name>
				        </developer>
				    </developers>
				    <scm>
				        <connection>scm:git:https://example.org/fixture.git</connection>
				        <url>https://example.org/fixture</url>
				    </scm>
				</project>
				""";
	}

	/**
	 * The jar artifact's POM: a name of its own, the rest inherited.
	 * @param dependencies XML inside {@code <dependencies>}
	 * @return the POM
	 */
	static String libPom(String dependencies) {
		return """
				<?xml version="1.0" encoding="UTF-8"?>
				<project xmlns="http://maven.apache.org/POM/4.0.0">
				    <modelVersion>4.0.0</modelVersion>
				    <parent>
				        <groupId>io.zklock.fixture</groupId>
				        <artifactId>fixture-parent</artifactId>
				        <version>1.0.0</version>
				    </parent>
				    <artifactId>fixture-lib</artifactId>
				    <name>fixture-lib</name>
				    <description>The jar of the fixture bundle</description>
				    <dependencies>
				%s    </dependencies>
				</project>
				""".formatted(dependencies);
	}

	/**
	 * A jar holding one entry.
	 * @param entry the entry's name
	 * @param content its bytes
	 * @return the jar's bytes
	 * @throws IOException never, in memory
	 */
	static byte[] jar(String entry, byte[] content) throws IOException {
		Manifest manifest = new Manifest();
		manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
			jar.putNextEntry(new ZipEntry(entry));
			jar.write(content);
			jar.closeEntry();
		}
		return bytes.toByteArray();
	}

	private static String digest(String algorithm, byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** An RSA signing key that lives in this JVM only. */
	private record Key(PGPKeyPair pair, String publicKey) {

		static Key generate() {
			try {
				RSAKeyPairGenerator generator = new RSAKeyPairGenerator();
				generator.init(new RSAKeyGenerationParameters(BigInteger.valueOf(0x10001), new SecureRandom(), 2048, 80));
				PGPKeyPair pair = new BcPGPKeyPair(PublicKeyAlgorithmTags.RSA_GENERAL, generator.generateKeyPair(), new Date());
				PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, pair,
						"zklock release-tests throwaway key <release-tests@zklock.invalid>",
						new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), null, null,
						new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.RSA_GENERAL, HashAlgorithmTags.SHA256), null);
				ByteArrayOutputStream armored = new ByteArrayOutputStream();
				try (ArmoredOutputStream out = new ArmoredOutputStream(armored)) {
					rings.generatePublicKeyRing().encode(out);
				}
				return new Key(pair, armored.toString(StandardCharsets.US_ASCII));
			}
			catch (PGPException | IOException ex) {
				throw new IllegalStateException("Cannot make the fixtures' throwaway OpenPGP key", ex);
			}
		}

		String sign(byte[] content) {
			try {
				PGPSignatureGenerator generator = new PGPSignatureGenerator(
						new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.RSA_GENERAL, HashAlgorithmTags.SHA256),
						this.pair.getPublicKey());
				generator.init(PGPSignature.BINARY_DOCUMENT, this.pair.getPrivateKey());
				generator.update(content);
				ByteArrayOutputStream armored = new ByteArrayOutputStream();
				try (OutputStream out = new ArmoredOutputStream(armored)) {
					generator.generate().encode(out);
				}
				return armored.toString(StandardCharsets.US_ASCII);
			}
			catch (PGPException | IOException ex) {
				throw new IllegalStateException("Cannot sign with the fixtures' throwaway key", ex);
			}
		}

	}

}
