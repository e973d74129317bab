package io.zklock.test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;

import io.zklock.fixtures.CapturedLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link TestZooKeeperServers}: where the test server listens, and what it logs.
 * The logging tests lower the root logger to INFO, as Spring Boot's default configuration has
 * it (this module's logback-test.xml keeps it at WARN).
 */
@Timeout(60)
class TestZooKeeperServersTests {

	private static final List<String> SERVER_LOGGERS = List.of("org.apache.zookeeper.server",
			"org.apache.zookeeper.server.ServerCnxnFactory", "org.apache.zookeeper.audit", "org.apache.curator.test",
			"org.apache.zookeeper");

	private final LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());

	private CapturedLog log;

	@BeforeEach
	void recordAtInfo() {
		SERVER_LOGGERS.forEach((name) -> this.logging.setLogLevel(name, null));
		this.log = CapturedLog.atLevel(Level.INFO, org.slf4j.Logger.ROOT_LOGGER_NAME);
	}

	@AfterEach
	void restoreLogging() {
		this.log.close();
		SERVER_LOGGERS.forEach((name) -> this.logging.setLogLevel(name, null));
	}

	@Test
	void shouldListenOnTheLoopbackAddressOnly() throws Exception {
		try (TestZooKeeperServers.Running running = TestZooKeeperServers.obtain(LoopbackExample.class)) {
			String connectString = running.zookeeper().connectString();
			assertThat(connectString).startsWith("127.0.0.1:");
			int port = Integer.parseInt(connectString.substring(connectString.indexOf(':') + 1));
			// a server bound to every interface (0.0.0.0 or ::) holds the port on 127.0.0.2 too
			try (ServerSocket sameport = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.2"))) {
				assertThat(sameport.getLocalPort()).isEqualTo(port);
			}
		}
	}

	@Test
	void shouldKeepTheServersOwnLogsToWarnings() throws Exception {
		TestZooKeeperServers.obtain(QuietExample.class).close();
		assertThat(this.log.events())
			.filteredOn((event) -> event.getLoggerName().startsWith("org.apache.zookeeper.server")
					|| event.getLoggerName().startsWith("org.apache.curator.test"))
			.extracting(ILoggingEvent::getFormattedMessage)
			.isEmpty();
	}

	@Test
	void shouldLeaveServerLoggersAConfigurationSets() throws Exception {
		this.logging.setLogLevel("org.apache.zookeeper", LogLevel.INFO);
		TestZooKeeperServers.obtain(ConfiguredExample.class).close();
		// the server's runner thread logs its end on its own, possibly after close() returned
		await("the server's own INFO line at its end").atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.log.events()).extracting(ILoggingEvent::getFormattedMessage)
				.anyMatch((message) -> message.startsWith("ZK server died")));
	}

	static class LoopbackExample {

	}

	static class QuietExample {

	}

	static class ConfiguredExample {

	}

}
