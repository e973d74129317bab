package io.zklock.autoconfigure;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS to a real server's secure client port, with key material made by {@code keytool}
 * for the test: a TLS client acquires locks, a plaintext client does not connect, and bad
 * store settings fail start-up with a clear message. The client's TLS settings live on its
 * own {@link ZKClientConfig}, never in JVM-wide system properties.
 */
@Timeout(120)
class ZkLockTlsTests {

	private static final String PASSWORD = "changeit";

	@TempDir
	static Path keys;

	private static TestingServer server;

	private static int securePort;

	private static final List<String> SERVER_SYSTEM_PROPERTIES = List.of("zookeeper.serverCnxnFactory",
			"zookeeper.ssl.keyStore.location", "zookeeper.ssl.keyStore.password", "zookeeper.ssl.trustStore.location",
			"zookeeper.ssl.trustStore.password");

	@BeforeAll
	static void startTlsServer() throws Exception {
		keytool("-genkeypair", "-alias", "zk", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname",
				"CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", keys.resolve("key.p12").toString(),
				"-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
		keytool("-exportcert", "-alias", "zk", "-keystore", keys.resolve("key.p12").toString(), "-storepass", PASSWORD,
				"-file", keys.resolve("zk.cer").toString());
		keytool("-importcert", "-noprompt", "-alias", "zk", "-file", keys.resolve("zk.cer").toString(), "-keystore",
				keys.resolve("trust.p12").toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
		try (ServerSocket socket = new ServerSocket(0)) {
			securePort = socket.getLocalPort();
		}
		// server-side settings: ZooKeeper's config parser turns unknown keys into system
		// properties of this test JVM, which are cleared again afterwards
		Map<String, Object> config = new HashMap<>();
		config.put("secureClientPort", Integer.toString(securePort));
		config.put("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
		config.put("ssl.keyStore.location", keys.resolve("key.p12").toString());
		config.put("ssl.keyStore.password", PASSWORD);
		config.put("ssl.trustStore.location", keys.resolve("trust.p12").toString());
		config.put("ssl.trustStore.password", PASSWORD);
		server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1, config), true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
		SERVER_SYSTEM_PROPERTIES.forEach(System::clearProperty);
	}

	private ApplicationContextRunner tlsRunner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:" + securePort,
					"zklock.zookeeper.block-until-connected=20s", "zklock.zookeeper.ssl.enabled=true",
					"zklock.zookeeper.ssl.key-store.location=" + keys.resolve("key.p12"),
					"zklock.zookeeper.ssl.key-store.password=" + PASSWORD,
					"zklock.zookeeper.ssl.trust-store.location=" + keys.resolve("trust.p12"),
					"zklock.zookeeper.ssl.trust-store.password=" + PASSWORD);
	}

	@Test
	void shouldAcquireLocksOverTls() {
		tlsRunner().run((context) -> {
			assertThat(context).hasNotFailed();
			CuratorFramework client = context.getBean(CuratorFramework.class);
			ZKClientConfig config = client.getZookeeperClient().getZooKeeper().getClientConfig();
			assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
			assertThat(System.getProperty(ZKClientConfig.SECURE_CLIENT)).as("no JVM-wide setting").isNull();
			assertThat(System.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).isNull();
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("tls", LockMode.EXCLUSIVE)) {
				assertThat(lock.fencingToken()).isPositive();
			}
		});
	}

	@Test
	void shouldNotConnectInPlaintextToTheSecurePort() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:" + securePort,
					"zklock.zookeeper.block-until-connected=2s", "zklock.zookeeper.connection-timeout=1s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ZooKeeperConnectionException.class);
			});
	}

	@Test
	void shouldFailStartUpNamingThePropertyWhenTheStorePasswordIsWrong() {
		tlsRunner().withPropertyValues("zklock.zookeeper.ssl.trust-store.password=wrong").run((context) -> {
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("zklock.zookeeper.ssl.trust-store.location=")
				.contains("cannot be opened as PKCS12")
				.doesNotContain("wrong");
			assertThat(analysis.getAction()).contains("zklock.zookeeper.ssl.trust-store.password");
		});
	}

	@Test
	void shouldFailStartUpNamingThePropertyWhenTheStoreIsMissing() {
		tlsRunner().withPropertyValues("zklock.zookeeper.ssl.key-store.location=/nonexistent/key.p12")
			.run((context) -> assertThat(new ZkLockPropertyFailureAnalyzer(null)
				.analyze(context.getStartupFailure())
				.getDescription()).startsWith("Invalid value '/nonexistent/key.p12' for configuration property "
						+ "'zklock.zookeeper.ssl.key-store.location'")
				.endsWith(": the file does not exist or cannot be read; point it at a readable PKCS12, JKS or PEM "
						+ "file."));
	}

	private static void keytool(String... args) throws Exception {
		List<String> command = new java.util.ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(keys.resolve("keytool.log").toFile())
			.start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(Files.readString(keys.resolve("keytool.log"))).isZero();
	}

}
