package io.zklock.autoconfigure;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.client.ZKClientConfig;
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
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS with key and trust store files to a real server's secure client port (a child JVM, certificates made by
 * {@code keytool} for the test). The server's certificate names {@code localhost} only, no address: a client that
 * connects to {@code localhost} verifies it; a client that connects to {@code 127.0.0.1} is refused, since
 * ZooKeeper's fallback to a reverse DNS lookup of the address (CVE-2026-24281) is off unless
 * {@code zklock.zookeeper.ssl.allow-reverse-dns-lookup=true}, and so is the other road to it, ZooKeeper's SASL
 * client asking for the server's host name (which made the address test connect before zklock turned that client
 * off). The client's TLS settings live on its own {@link ZKClientConfig}, never in JVM-wide system properties.
 */
@Timeout(120)
@Tag("slow")
class ZkLockTlsTests {

	private static final String REVERSE_LOOKUP_PROPERTY = "zookeeper.ssl.allowReverseDnsLookup";

	@TempDir
	static Path dir;

	private static Map<String, TlsIdentity> identities;

	private static TlsZooKeeperServer server;

	@BeforeAll
	static void startTlsServer() throws Exception {
		identities = TlsIdentity.createAll(dir, Map.of("zk-server", "dns:localhost", "alice", ""));
		server = TlsZooKeeperServer.start(dir.resolve("server"), identities.get("zk-server"), identities.get("alice"));
		TlsIdentity.trustStore(dir.resolve("trust.p12"), "PKCS12", identities.get("zk-server"));
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	private ApplicationContextRunner tlsRunner(String host) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + host + ":" + server.port(),
					"zklock.zookeeper.block-until-connected=20s", "zklock.zookeeper.ssl.enabled=true",
					"zklock.zookeeper.ssl.key-store.location=" + identities.get("alice").pkcs12(),
					"zklock.zookeeper.ssl.key-store.password=" + TlsIdentity.PASSWORD,
					"zklock.zookeeper.ssl.trust-store.location=" + dir.resolve("trust.p12"),
					"zklock.zookeeper.ssl.trust-store.password=" + TlsIdentity.PASSWORD);
	}

	@Test
	void shouldAcquireLocksOverTlsWhenTheCertificateNamesTheHost() {
		tlsRunner("localhost").run((context) -> {
			assertThat(context).hasNotFailed();
			CuratorFramework client = context.getBean(CuratorFramework.class);
			ZKClientConfig config = client.getZookeeperClient().getZooKeeper().getClientConfig();
			assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
			assertThat(config.getProperty("zookeeper.ssl.hostnameVerification")).isEqualTo("true");
			assertThat(config.getProperty(REVERSE_LOOKUP_PROPERTY)).isEqualTo("false");
			assertThat(config.isSaslClientEnabled()).as("no JAAS section: no SASL client to look the host up")
				.isFalse();
			assertThat(System.getProperty(ZKClientConfig.SECURE_CLIENT)).as("no JVM-wide setting").isNull();
			assertThat(System.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).isNull();
			assertThat(TlsSessions.x509Subject(client)).isEqualTo("CN=alice");
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("tls", LockMode.EXCLUSIVE)) {
				assertThat(lock.fencingToken()).isPositive();
			}
		});
	}

	@Test
	void shouldRefuseAServerWhoseCertificateDoesNotNameTheAddress() {
		tlsRunner("127.0.0.1").withPropertyValues("zklock.zookeeper.block-until-connected=3s").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			System.out.println("Mismatched certificate, as a user reads it:\n" + analysis.getDescription() + "\n"
					+ analysis.getAction());
			assertThat(analysis.getDescription()).contains("over TLS")
				.contains("127.0.0.1:" + server.port() + ": accepts TCP connections, but the TLS handshake failed: "
						+ "the server's certificate does not match the host '127.0.0.1' (")
				.endsWith("; ZooKeeper does not look the address up in reverse DNS).");
			assertThat(analysis.getAction()).contains("a certificate that the client trusts and that names the host "
					+ "or address the connect string gives");
		});
	}

	@Test
	void shouldKeepTheReverseDnsFallbackOffWhenTheJvmTurnsItOn() {
		System.setProperty(REVERSE_LOOKUP_PROPERTY, "true");
		try {
			tlsRunner("127.0.0.1").withPropertyValues("zklock.zookeeper.block-until-connected=3s")
				.run((context) -> assertThat(context).hasFailed());
		}
		finally {
			System.clearProperty(REVERSE_LOOKUP_PROPERTY);
		}
	}

	@Test
	void shouldFallBackToReverseDnsOnlyWhenAllowed() throws Exception {
		assumeTrue("localhost".equals(InetAddress.getByName("127.0.0.1").getCanonicalHostName()),
				"127.0.0.1 is looked up as localhost in reverse");
		tlsRunner("127.0.0.1").withPropertyValues("zklock.zookeeper.ssl.allow-reverse-dns-lookup=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(TlsSessions.x509Subject(context.getBean(CuratorFramework.class))).isEqualTo("CN=alice");
			});
	}

	@Test
	void shouldNotConnectInPlaintextToTheSecurePort() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:" + server.port(),
					"zklock.zookeeper.block-until-connected=2s", "zklock.zookeeper.connection-timeout=1s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ZooKeeperConnectionException.class);
			});
	}

	@Test
	void shouldFailStartUpNamingThePropertyWhenTheStorePasswordIsWrong() {
		tlsRunner("localhost").withPropertyValues("zklock.zookeeper.ssl.trust-store.password=wrong").run((context) -> {
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("zklock.zookeeper.ssl.trust-store.location=")
				.contains("cannot be opened as PKCS12")
				.doesNotContain("wrong");
			assertThat(analysis.getAction()).contains("zklock.zookeeper.ssl.trust-store.password");
		});
	}

	@Test
	void shouldFailStartUpNamingThePropertyWhenTheStoreIsMissing() {
		tlsRunner("localhost").withPropertyValues("zklock.zookeeper.ssl.key-store.location=/nonexistent/key.p12")
			.run((context) -> assertThat(new ZkLockPropertyFailureAnalyzer(null)
				.analyze(context.getStartupFailure())
				.getDescription()).startsWith("Invalid value '/nonexistent/key.p12' for configuration property "
						+ "'zklock.zookeeper.ssl.key-store.location'")
				.endsWith(": the file does not exist or cannot be read; point it at a readable PKCS12, JKS or PEM "
						+ "file."));
	}

}
