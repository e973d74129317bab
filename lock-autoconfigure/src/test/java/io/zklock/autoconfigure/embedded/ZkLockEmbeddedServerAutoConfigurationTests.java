package io.zklock.autoconfigure.embedded;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
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
	void shouldUseConfiguredPort() throws Exception {
		int free;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
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
				.hasMessageContaining("zklock.zookeeper.embedded.port=70000"));
	}

	@Test
	void shouldFailFastNamingMissingServerLibraries() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("com.codahale.metrics", "org.xerial.snappy"))
			.withPropertyValues("zklock.zookeeper.embedded.enabled=true")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("io.dropwizard.metrics:metrics-core and org.xerial.snappy:snappy-java")
				.hasMessageContaining("zklock.zookeeper.embedded.enabled=false"));
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
