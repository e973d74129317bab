package io.zklock.autoconfigure;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.tlstest.TlsIdentity;
import io.zklock.tlstest.TlsSessions;
import io.zklock.tlstest.TlsZooKeeperServer;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zklock.zookeeper.ssl.bundle} on a real server's secure client port (a child JVM that requires a client
 * certificate and names each session by it, {@code whoAmI}): JKS and PEM bundles, two clients with different
 * bundles in one JVM, a reloaded bundle, and the start-up errors of a bundle set wrong.
 */
@Timeout(180)
@Tag("slow")
class ZkLockSslBundleTests {

	@TempDir
	static Path dir;

	private static Map<String, TlsIdentity> identities;

	private static TlsZooKeeperServer server;

	@BeforeAll
	static void startTlsServer() throws Exception {
		identities = TlsIdentity.createAll(dir, Map.of("zk-server", "dns:localhost", "alice", "", "bob", "",
				"alice-renewed", ""));
		server = TlsZooKeeperServer.start(dir.resolve("server"), identity("zk-server"), identity("alice"),
				identity("bob"), identity("alice-renewed"));
		TlsIdentity.trustStore(dir.resolve("trust.jks"), "JKS", identity("zk-server"));
		TlsIdentity.trustStore(dir.resolve("trusts-bob-only.jks"), "JKS", identity("bob"));
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	private static TlsIdentity identity(String name) {
		return identities.get(name);
	}

	private static ApplicationContextRunner runner(String bundle) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=localhost:" + server.port(),
					"zklock.zookeeper.block-until-connected=20s", "zklock.zookeeper.ssl.bundle=" + bundle);
	}

	private static String[] jksBundle(String bundle, Path keyStore, Path trustStore) {
		String prefix = "spring.ssl.bundle.jks." + bundle;
		return new String[] { prefix + ".keystore.location=file:" + keyStore,
				prefix + ".keystore.password=" + TlsIdentity.PASSWORD, prefix + ".keystore.type=JKS",
				prefix + ".truststore.location=file:" + trustStore,
				prefix + ".truststore.password=" + TlsIdentity.PASSWORD, prefix + ".truststore.type=JKS" };
	}

	private static String[] pemBundle(String bundle, TlsIdentity client) throws Exception {
		String prefix = "spring.ssl.bundle.pem." + bundle;
		return new String[] { prefix + ".keystore.certificate=file:" + client.certificatePem(),
				prefix + ".keystore.private-key=file:" + client.privateKeyPem(),
				prefix + ".truststore.certificate=file:" + identity("zk-server").certificatePem() };
	}

	@Test
	void shouldConnectWithAJksBundle() throws Exception {
		Path[] copy = new Path[1];
		runner("zk").withPropertyValues(jksBundle("zk", identity("alice").jks(), dir.resolve("trust.jks")))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(TlsSessions.x509Subject(client)).isEqualTo("CN=alice");
				assertThat(System.getProperty("zookeeper.ssl.keyStore.location")).as("no JVM-wide setting").isNull();
				try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("bundle", LockMode.EXCLUSIVE)) {
					assertThat(lock.isHeld()).isTrue();
				}
				copy[0] = context.getBean(ClientSslBundle.class).files().directory();
				assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(copy[0])))
					.as("the client's copy of the material is private").isEqualTo("rwx------");
			});
		assertThat(copy[0]).as("the copy is deleted with the client").doesNotExist();
	}

	@Test
	void shouldConnectWithAPemBundle() throws Exception {
		runner("zk").withPropertyValues(pemBundle("zk", identity("bob"))).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(TlsSessions.x509Subject(context.getBean(CuratorFramework.class))).isEqualTo("CN=bob");
		});
	}

	@Test
	void shouldGiveEachClientItsOwnBundle() throws Exception {
		ApplicationContextRunner aliceApp = runner("alice")
			.withPropertyValues(jksBundle("alice", identity("alice").jks(), dir.resolve("trust.jks")));
		ApplicationContextRunner bobApp = runner("bob").withPropertyValues(pemBundle("bob", identity("bob")));
		aliceApp.run((alice) -> bobApp.run((bob) -> {
			assertThat(TlsSessions.x509Subject(alice.getBean(CuratorFramework.class))).isEqualTo("CN=alice");
			assertThat(TlsSessions.x509Subject(bob.getBean(CuratorFramework.class))).isEqualTo("CN=bob");
			assertThat(alice.getBean(ClientSslBundle.class).files().directory())
				.isNotEqualTo(bob.getBean(ClientSslBundle.class).files().directory());
		}));
	}

	@Test
	void shouldReconnectWithTheReloadedBundleKeepingSessionAndLocks() throws Exception {
		Path keyStore = Files.copy(identity("alice").jks(), dir.resolve("reloaded-at-once.jks"),
				StandardCopyOption.REPLACE_EXISTING);
		reloading(runner("zk"), keyStore).run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			long session = TlsSessions.sessionId(client);
			assertThat(TlsSessions.x509Subject(client)).isEqualTo("CN=alice");
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("renewal", LockMode.EXCLUSIVE)) {
				Files.copy(identity("alice-renewed").jks(), keyStore, StandardCopyOption.REPLACE_EXISTING);
				await().atMost(Duration.ofSeconds(30))
					.ignoreExceptions()
					.until(() -> "CN=alice-renewed".equals(TlsSessions.x509Subject(client)));
				assertThat(TlsSessions.sessionId(client)).isEqualTo(session);
				await().atMost(Duration.ofSeconds(30)).until(lock::isHeld);
			}
		});
	}

	@Test
	void shouldUseTheReloadedBundleFromTheNextConnectionWhenAsked() throws Exception {
		Path keyStore = Files.copy(identity("alice").jks(), dir.resolve("reloaded-later.jks"),
				StandardCopyOption.REPLACE_EXISTING);
		reloading(runner("zk"), keyStore).withPropertyValues("zklock.zookeeper.ssl.reconnect-on-bundle-update=false")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				SslBundleStoreFiles copy = context.getBean(ClientSslBundle.class).files();
				Files.copy(identity("alice-renewed").jks(), keyStore, StandardCopyOption.REPLACE_EXISTING);
				await().atMost(Duration.ofSeconds(30))
					.until(() -> aliases(copy.keyStore(), copy.password()).contains("alice-renewed"));
				assertThat(TlsSessions.x509Subject(client)).as("still the first connection").isEqualTo("CN=alice");
				client.getZookeeperClient().getZooKeeper().getTestable().closeSocket();
				await().atMost(Duration.ofSeconds(30))
					.ignoreExceptions()
					.until(() -> "CN=alice-renewed".equals(TlsSessions.x509Subject(client)));
			});
	}

	private static ApplicationContextRunner reloading(ApplicationContextRunner runner, Path keyStore) {
		return runner.withPropertyValues(jksBundle("zk", keyStore, dir.resolve("trust.jks")))
			.withPropertyValues("spring.ssl.bundle.jks.zk.reload-on-update=true",
					"spring.ssl.bundle.watch.file.quiet-period=100ms");
	}

	private static java.util.List<String> aliases(Path store, String password) throws Exception {
		KeyStore keyStore = KeyStore.getInstance(SslBundleStoreFiles.TYPE);
		try (InputStream in = Files.newInputStream(store)) {
			keyStore.load(in, password.toCharArray());
		}
		return Collections.list(keyStore.aliases());
	}

	@Test
	void shouldRefuseAServerTheBundleDoesNotTrust() throws Exception {
		runner("zk").withPropertyValues(jksBundle("zk", identity("alice").jks(), dir.resolve("trusts-bob-only.jks")))
			.withPropertyValues("zklock.zookeeper.block-until-connected=3s")
			.run((context) -> {
				FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
				System.out.println("Untrusted server certificate, as a user reads it:\n" + analysis.getDescription());
				assertThat(analysis.getDescription()).contains("localhost:" + server.port()
						+ ": accepts TCP connections, but the TLS handshake failed: the client does not trust the "
						+ "server's certificate (");
			});
	}

	@Test
	void shouldFailStartUpWhenABundleAndStoreFilesAreBothSet() throws Exception {
		runner("zk").withPropertyValues(jksBundle("zk", identity("alice").jks(), dir.resolve("trust.jks")))
			.withPropertyValues("zklock.zookeeper.ssl.key-store.location=/etc/zk/client.p12",
					"zklock.zookeeper.ssl.key-store.password=secret")
			.run((context) -> {
				FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
				System.out.println("Bundle and files, as a user reads it:\n" + analysis.getDescription() + "\n"
						+ analysis.getAction());
				assertThat(analysis.getDescription()).isEqualTo("zklock.zookeeper.ssl.bundle=zk and "
						+ "zklock.zookeeper.ssl.key-store.location=/etc/zk/client.p12, "
						+ "zklock.zookeeper.ssl.key-store.password are both set: zklock's ZooKeeper client takes "
						+ "its TLS material either from an SSL bundle or from key and trust store files, not from "
						+ "both.");
				assertThat(analysis.getAction()).isEqualTo("Remove zklock.zookeeper.ssl.key-store.* and "
						+ "zklock.zookeeper.ssl.trust-store.* (give their files to the bundle instead: "
						+ "spring.ssl.bundle.jks.zk.keystore.location and .truststore.location), or remove "
						+ "zklock.zookeeper.ssl.bundle.");
			});
	}

	@Test
	void shouldFailStartUpNamingAnUnknownBundle() throws Exception {
		runner("zk-client").withPropertyValues(pemBundle("zk", identity("bob"))).run((context) -> {
			FailureAnalysis analysis = new ZkLockPropertyFailureAnalyzer(null)
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).startsWith(
					"Invalid value 'zk-client' for configuration property 'zklock.zookeeper.ssl.bundle'")
				.endsWith(": no SSL bundle has that name; define it under spring.ssl.bundle.jks.zk-client.* or "
						+ "spring.ssl.bundle.pem.zk-client.* (defined: zk).");
		});
	}

}
