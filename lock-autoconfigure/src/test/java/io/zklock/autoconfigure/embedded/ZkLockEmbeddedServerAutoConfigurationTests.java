package io.zklock.autoconfigure.embedded;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockStartupException;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ZkLockEmbeddedServerAutoConfiguration}.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class ZkLockEmbeddedServerAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockEmbeddedServerAutoConfiguration.class));

	@Test
	void shouldNotStartServerByDefault() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockEmbeddedServerAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedZooKeeperServer.class));
	}

	@Test
	void shouldStartServerConnectClientAndStopServerAfterClient(CapturedOutput output) {
		int[] port = new int[1];
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.embedded.enabled=true",
					"zklock.zookeeper.connect-string=unused.invalid:2181")
			.run((context) -> {
				assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class);
				EmbeddedZooKeeperServer server = context.getBean(EmbeddedZooKeeperServer.class);
				port[0] = server.getPort();
				assertThat(port[0]).isPositive();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(server.getConnectString());
				try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("embedded", LockMode.EXCLUSIVE)) {
					assertThat(lock.fencingToken()).isPositive();
				}
			});
		assertThat(output).containsOnlyOnce("locks exclude only clients of this one server");
		await().atMost(Duration.ofSeconds(10)).until(() -> !listening(port[0]));
	}

	@Test
	void shouldWarnOnceThatTheConfiguredConnectStringIsIgnored(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.embedded.enabled=true",
					"zklock.zookeeper.connect-string=digest:secret@zk1.invalid:2181,zk2.invalid:2181")
			.run((context) -> {
				String server = context.getBean(EmbeddedZooKeeperServer.class).getConnectString();
				assertThat(output).containsOnlyOnce("zklock.zookeeper.connect-string=zk1.invalid:2181,zk2.invalid:2181 "
						+ "is ignored: zklock.zookeeper.embedded.enabled=true connects zklock's client to the "
						+ "in-process ZooKeeper server at " + server)
					.doesNotContain("secret");
			});
	}

	@Test
	void shouldNotWarnAboutTheConnectStringWhenNoneIsSet(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.zookeeper.embedded.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class));
		assertThat(output).contains("zklock started an in-process ZooKeeper server").doesNotContain("is ignored");
	}

	@Test
	void shouldLowerZooKeeperServerLoggersWhileRunningAndRestoreThemAfterwards(CapturedOutput output) {
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		this.contextRunner.withPropertyValues("zklock.zookeeper.embedded.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class);
			assertThat(configuredLevel(logging, "org.apache.zookeeper.server")).isEqualTo(LogLevel.WARN);
			assertThat(configuredLevel(logging, "org.apache.zookeeper.audit")).isEqualTo(LogLevel.WARN);
			assertThat(configuredLevel(logging, "org.apache.zookeeper.server.embedded.ZooKeeperServerEmbeddedImpl"))
				.isEqualTo(LogLevel.WARN);
			assertThat(configuredLevel(logging, "org.apache.zookeeper.server.ServerCnxnFactory"))
				.isEqualTo(LogLevel.ERROR);
		});
		for (String logger : List.of("org.apache.zookeeper.server", "org.apache.zookeeper.audit",
				"org.apache.zookeeper.server.embedded.ZooKeeperServerEmbeddedImpl",
				"org.apache.zookeeper.server.ServerCnxnFactory")) {
			assertThat(configuredLevel(logging, logger)).as(logger).isNull();
		}
		assertThat(output).doesNotContain("ZK server died").doesNotContain("maxCnxns");
	}

	@Test
	void shouldKeepZooKeeperLoggerLevelsTheApplicationConfigured() {
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel("org.apache.zookeeper", LogLevel.INFO);
		logging.setLogLevel("org.apache.zookeeper.server.ServerCnxnFactory", LogLevel.DEBUG);
		try {
			this.contextRunner.withPropertyValues("zklock.zookeeper.embedded.enabled=true").run((context) -> {
				assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class);
				assertThat(configuredLevel(logging, "org.apache.zookeeper.server")).isNull();
				assertThat(configuredLevel(logging, "org.apache.zookeeper.audit")).isNull();
				assertThat(configuredLevel(logging, "org.apache.zookeeper.server.ServerCnxnFactory"))
					.isEqualTo(LogLevel.DEBUG);
				// the "ZK server died" line says nothing wrong: quieted unless that logger itself is configured
				assertThat(configuredLevel(logging, "org.apache.zookeeper.server.embedded.ZooKeeperServerEmbeddedImpl"))
					.isEqualTo(LogLevel.WARN);
			});
			assertThat(configuredLevel(logging, "org.apache.zookeeper")).isEqualTo(LogLevel.INFO);
			assertThat(configuredLevel(logging, "org.apache.zookeeper.server.ServerCnxnFactory"))
				.isEqualTo(LogLevel.DEBUG);
		}
		finally {
			logging.setLogLevel("org.apache.zookeeper", null);
			logging.setLogLevel("org.apache.zookeeper.server.ServerCnxnFactory", null);
		}
	}

	@Test
	void shouldRunTheServerOnDaemonThreadsOnly() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		this.contextRunner.withPropertyValues("zklock.zookeeper.embedded.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class);
			List<String> keepingJvmAlive = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> !before.contains(thread) && thread.isAlive() && !thread.isDaemon())
				.map(Thread::getName)
				.toList();
			assertThat(keepingJvmAlive).as("new non-daemon threads").isEmpty();
		});
	}

	@Test
	void shouldUseConfiguredPort() throws Exception {
		int free;
		try (ServerSocket socket = new ServerSocket(0)) {
			free = socket.getLocalPort();
		}
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.embedded.enabled=true", "zklock.zookeeper.embedded.port=" + free)
			.run((context) -> assertThat(context.getBean(EmbeddedZooKeeperServer.class).getConnectString())
				.isEqualTo("127.0.0.1:" + free));
	}

	@Test
	void shouldNotStartServerWhenZkLockIsDisabled() {
		this.contextRunner.withPropertyValues("zklock.enabled=false", "zklock.zookeeper.embedded.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedZooKeeperServer.class));
	}

	@Test
	void shouldFailWithClearMessageForInvalidPort() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.embedded.enabled=true", "zklock.zookeeper.embedded.port=70000")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("zklock.zookeeper.embedded.port")
				.hasMessageContaining("'70000'")
				.hasMessageContaining("a port between 1 and 65535"));
	}

	@Test
	void shouldFailFastNamingMissingServerLibraries() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("com.codahale.metrics", "org.xerial.snappy"))
			.withPropertyValues("zklock.zookeeper.embedded.enabled=true")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("io.dropwizard.metrics:metrics-core and org.xerial.snappy:snappy-java")
				.hasMessageContaining("zklock-spring-boot-starter-embedded")
				.hasMessageContaining("zklock.zookeeper.embedded.enabled=false"));
	}

	@Test
	void shouldFailNamingThePortWhenItIsTaken() throws Exception {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			long started = System.nanoTime();
			this.contextRunner
				.withPropertyValues("zklock.zookeeper.embedded.enabled=true",
						"zklock.zookeeper.embedded.port=" + taken.getLocalPort())
				.run((context) -> {
					assertThat(context).getFailure().hasRootCauseInstanceOf(BindException.class);
					assertThat(startupException(context.getStartupFailure()))
						.hasMessageContaining("could not start on 127.0.0.1:" + taken.getLocalPort() + ": the port is taken")
						.hasMessageContaining("zklock.zookeeper.embedded.port");
				});
			// at once, not after the server's start time-out
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
		}
	}

	private static ZkLockStartupException startupException(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ZkLockStartupException startup) {
				return startup;
			}
		}
		throw new AssertionError("No ZkLockStartupException in " + failure, failure);
	}

	private static LogLevel configuredLevel(LoggingSystem logging, String logger) {
		return logging.getLoggerConfiguration(logger).getConfiguredLevel();
	}

	private static boolean listening(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
			return true;
		}
		catch (Exception ex) {
			return false;
		}
	}

}
