package io.zklock.autoconfigure;

import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.DefaultZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A session timeout that the servers do not grant as {@code zklock.zookeeper.session-timeout}
 * asks: against a real server whose {@code maxSessionTimeout} is 4 s ({@code tickTime} 500 ms,
 * so it grants between 1 s and 4 s), as Debian's packaged server cuts the default 60 s to 40 s.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class ZkLockSessionTimeoutTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class));

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
				Map.of("tickTime", "500", "maxSessionTimeout", "4000")), true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldWarnOnceNamingTheGrantedTimeoutAndTheServerSetting(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				long session = context.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper().getSessionId();
				await().untilAsserted(() -> assertThat(output)
					.containsOnlyOnce("The ZooKeeper server granted session 0x" + Long.toHexString(session)
							+ " a timeout of 4000 ms, not the 60000 ms asked for (zklock.zookeeper.session-timeout)")
					.contains("raise maxSessionTimeout (or tickTime) on every server (zoo.cfg), or ask for at most "
							+ "4000 ms."));
			});
	}

	@Test
	void shouldStaySilentWhenTheServersGrantTheTimeoutAskedFor(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.session-timeout=3s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper().getSessionTimeout())
					.isEqualTo(3000);
			});
		assertThat(output).doesNotContain("The ZooKeeper server granted session");
	}

	@Test
	void shouldCheckAroundTheFactoryACustomizerSets(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(FactoryCustomizerConfiguration.class)
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
					"zklock.zookeeper.session-timeout=10s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CountingFactory.class).created).isPositive();
				await().untilAsserted(() -> assertThat(output)
					.contains("a timeout of 4000 ms, not the 10000 ms asked for (zklock.zookeeper.session-timeout)"));
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class FactoryCustomizerConfiguration {

		@Bean
		CountingFactory countingFactory() {
			return new CountingFactory();
		}

		@Bean
		CuratorFrameworkCustomizer zooKeeperFactoryCustomizer(CountingFactory factory) {
			return (CuratorFrameworkFactory.Builder builder) -> builder.zookeeperFactory(factory);
		}

	}

	/** A factory of the application's own, which zklock's check must keep using. */
	static class CountingFactory extends DefaultZookeeperFactory {

		volatile int created;

		@Override
		public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
				ZKClientConfig zkClientConfig) throws Exception {
			this.created++;
			return super.newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, zkClientConfig);
		}

	}

}
