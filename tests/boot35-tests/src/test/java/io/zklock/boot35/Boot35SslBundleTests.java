package io.zklock.boot35;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.tlstest.TlsIdentity;
import io.zklock.tlstest.TlsSessions;
import io.zklock.tlstest.TlsZooKeeperServer;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zklock.zookeeper.ssl.bundle} with Boot 3.5's SSL bundles, on a real server's secure client port (a child
 * JVM that requires a client certificate and names each session by it): JKS and PEM bundles, a reloaded bundle,
 * a certificate that does not name the address the client connects to, and a bundle set together with store files.
 */
@Timeout(180)
class Boot35SslBundleTests {

	@TempDir
	static Path dir;

	private static Map<String, TlsIdentity> identities;

	private static TlsZooKeeperServer server;

	@BeforeAll
	static void startTlsServer() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		identities = TlsIdentity.createAll(dir, Map.of("zk-server", "dns:localhost", "alice", "", "bob", "",
				"alice-renewed", ""));
		server = TlsZooKeeperServer.start(dir.resolve("server"), identities.get("zk-server"), identities.get("alice"),
				identities.get("bob"), identities.get("alice-renewed"));
		TlsIdentity.trustStore(dir.resolve("trust.jks"), "JKS", identities.get("zk-server"));
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	private static ApplicationContextRunner runner(String host) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + host + ":" + server.port(),
					"zklock.zookeeper.block-until-connected=20s", "zklock.zookeeper.ssl.bundle=zk");
	}

	private static String[] jksBundle(Path keyStore) {
		return new String[] { "spring.ssl.bundle.jks.zk.keystore.location=file:" + keyStore,
				"spring.ssl.bundle.jks.zk.keystore.password=" + TlsIdentity.PASSWORD,
				"spring.ssl.bundle.jks.zk.keystore.type=JKS",
				"spring.ssl.bundle.jks.zk.truststore.location=file:" + dir.resolve("trust.jks"),
				"spring.ssl.bundle.jks.zk.truststore.password=" + TlsIdentity.PASSWORD,
				"spring.ssl.bundle.jks.zk.truststore.type=JKS" };
	}

	@Test
	void shouldConnectWithAJksBundle() throws Exception {
		runner("localhost").withPropertyValues(jksBundle(identities.get("alice").jks())).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(TlsSessions.x509Subject(context.getBean(CuratorFramework.class))).isEqualTo("CN=alice");
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("boot35-tls", LockMode.EXCLUSIVE)) {
				assertThat(lock.fencingToken()).isPositive();
			}
		});
	}

	@Test
	void shouldConnectWithAPemBundle() throws Exception {
		TlsIdentity bob = identities.get("bob");
		runner("localhost")
			.withPropertyValues("spring.ssl.bundle.pem.zk.keystore.certificate=file:" + bob.certificatePem(),
					"spring.ssl.bundle.pem.zk.keystore.private-key=file:" + bob.privateKeyPem(),
					"spring.ssl.bundle.pem.zk.truststore.certificate=file:"
							+ identities.get("zk-server").certificatePem())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(TlsSessions.x509Subject(context.getBean(CuratorFramework.class))).isEqualTo("CN=bob");
			});
	}

	@Test
	void shouldReconnectWithTheReloadedBundle() throws Exception {
		Path keyStore = Files.copy(identities.get("alice").jks(), dir.resolve("reloaded.jks"),
				StandardCopyOption.REPLACE_EXISTING);
		runner("localhost").withPropertyValues(jksBundle(keyStore))
			.withPropertyValues("spring.ssl.bundle.jks.zk.reload-on-update=true",
					"spring.ssl.bundle.watch.file.quiet-period=100ms")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				long session = TlsSessions.sessionId(client);
				Files.copy(identities.get("alice-renewed").jks(), keyStore, StandardCopyOption.REPLACE_EXISTING);
				await().atMost(Duration.ofSeconds(30))
					.ignoreExceptions()
					.until(() -> "CN=alice-renewed".equals(TlsSessions.x509Subject(client)));
				assertThat(TlsSessions.sessionId(client)).isEqualTo(session);
			});
	}

	@Test
	void shouldRefuseAServerWhoseCertificateDoesNotNameTheAddress() throws Exception {
		runner("127.0.0.1").withPropertyValues(jksBundle(identities.get("alice").jks()))
			.withPropertyValues("zklock.zookeeper.block-until-connected=3s")
			.run((context) -> {
				assertThat(context).hasFailed();
				System.out.println("Mismatched certificate on Boot 3.5, as a user reads it:\n"
						+ context.getStartupFailure().getCause().getMessage());
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("the TLS handshake failed: the server's certificate does not match the host "
							+ "'127.0.0.1' (")
					.hasMessageContaining("; ZooKeeper does not look the address up in reverse DNS)");
			});
	}

	@Test
	void shouldFailStartUpWhenABundleAndStoreFilesAreBothSet() throws Exception {
		runner("localhost").withPropertyValues(jksBundle(identities.get("alice").jks()))
			.withPropertyValues("zklock.zookeeper.ssl.key-store.location=/etc/zk/client.p12",
					"zklock.zookeeper.ssl.key-store.password=secret")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = zkLockAnalysis(context.getStartupFailure());
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

	/** The analysis of zklock's failure analyzers, loaded from spring.factories as Boot 3.5 loads them. */
	private static FailureAnalysis zkLockAnalysis(Throwable failure) {
		return SpringFactoriesLoader.forDefaultResourceLocation(Boot35SslBundleTests.class.getClassLoader())
			.load(FailureAnalyzer.class, ArgumentResolver.of(Environment.class, null),
					(type, name, ex) -> { /* one of Boot's own, which needs a bean factory */ })
			.stream()
			.filter((analyzer) -> analyzer.getClass().getName().startsWith("io.zklock."))
			.map((analyzer) -> analyzer.analyze(failure))
			.filter(Objects::nonNull)
			.findFirst()
			.orElseThrow(() -> new AssertionError("No zklock failure analysis of " + failure, failure));
	}

}
