package io.zklock.autoconfigure;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockEngine;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * zklock beside Spring Cloud Zookeeper 5.0 (its Boot 4 line), with all of Spring Cloud's
 * auto-configuration on the class path, started as whole applications against a real server.
 * Run by its own surefire execution, the only one whose class path has Spring Cloud.
 * <ul>
 * <li>Spring Cloud Zookeeper's client is reused: zklock builds no second client.</li>
 * <li>With {@code spring.config.import=zookeeper:}, Spring Cloud registers its client as
 * {@code configDataCuratorFramework}, for loading configuration; zklock reuses it when it is
 * the only one, and locks through the application's own client when there is one (Spring Cloud
 * Zookeeper itself then needs that client to be {@code @Primary}).</li>
 * </ul>
 * The 2025.1 train declares Spring Boot 4.0 only, so its compatibility verifier is off here.
 */
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class SpringCloudZookeeperTests extends ZkServerTest {

	@Test
	void shouldReuseSpringCloudZookeepersClient(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(CloudApplication.class,
				"--spring.cloud.zookeeper.config.enabled=false")) {
			Map<String, CuratorFramework> clients = context.getBeansOfType(CuratorFramework.class);
			assertThat(clients).containsOnlyKeys("curatorFramework");
			assertThat(context.getBean(LockEngine.class).getClient()).isSameAs(clients.get("curatorFramework"));
			assertLocks(context);
		}
		assertThat(output).containsOnlyOnce("zklock locks through the application's own CuratorFramework (ensemble '"
				+ server.getConnectString() + "', namespace ''); the zklock.zookeeper.* settings apply only to a "
				+ "client zklock builds itself.");
	}

	@Test
	void shouldStartWithTheConfigDataClientAlone() {
		try (ConfigurableApplicationContext context = start(CloudApplication.class,
				"--spring.config.import=zookeeper:" + server.getConnectString())) {
			Map<String, CuratorFramework> clients = context.getBeansOfType(CuratorFramework.class);
			assertThat(clients).containsOnlyKeys("configDataCuratorFramework");
			assertThat(context.getBean(LockEngine.class).getClient())
				.isSameAs(clients.get("configDataCuratorFramework"));
			assertLocks(context);
		}
	}

	@Test
	void shouldLockThroughThePrimaryClientBesideTheConfigDataClient() {
		try (ConfigurableApplicationContext context = start(CloudApplicationWithPrimaryClient.class,
				"--spring.config.import=zookeeper:" + server.getConnectString())) {
			Map<String, CuratorFramework> clients = context.getBeansOfType(CuratorFramework.class);
			assertThat(clients).containsOnlyKeys("configDataCuratorFramework", "ordersClient");
			assertThat(context.getBean(LockEngine.class).getClient()).isSameAs(clients.get("ordersClient"));
			assertLocks(context);
		}
	}

	@Test
	void shouldNotLockThroughTheConfigDataClientWhenTheApplicationHasItsOwn() {
		// Spring Cloud Zookeeper's own config watcher and health indicator need a single (or a
		// @Primary) client; with them off, zklock still starts and picks the application's client
		try (ConfigurableApplicationContext context = start(CloudApplicationWithOwnClient.class,
				"--spring.config.import=zookeeper:" + server.getConnectString(),
				"--spring.cloud.zookeeper.config.watcher.enabled=false",
				"--management.health.zookeeper.enabled=false")) {
			Map<String, CuratorFramework> clients = context.getBeansOfType(CuratorFramework.class);
			assertThat(clients).containsOnlyKeys("configDataCuratorFramework", "ordersClient");
			assertThat(context.getBean(LockEngine.class).getClient()).isSameAs(clients.get("ordersClient"));
			assertLocks(context);
		}
	}

	private static void assertLocks(ConfigurableApplicationContext context) {
		try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("cloud", LockMode.EXCLUSIVE)) {
			assertThat(lock.fencingToken()).isPositive();
		}
	}

	private static ConfigurableApplicationContext start(Class<?> application, String... args) {
		SpringApplication springApplication = new SpringApplication(application);
		springApplication.setWebApplicationType(WebApplicationType.NONE);
		springApplication.setBannerMode(Banner.Mode.OFF);
		String[] all = java.util.stream.Stream
			.concat(java.util.Arrays.stream(args),
					// the 2025.1 train (Spring Cloud Zookeeper 5.0) declares Spring Boot 4.0 only
					java.util.stream.Stream.of("--spring.cloud.compatibility-verifier.enabled=false",
							"--spring.cloud.zookeeper.connect-string=" + server.getConnectString(),
							"--spring.cloud.zookeeper.discovery.enabled=false", "--spring.jmx.enabled=false",
							"--spring.datasource.url=jdbc:h2:mem:cloud;DB_CLOSE_DELAY=-1"))
			.toArray(String[]::new);
		return springApplication.run(all);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CloudApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CloudApplicationWithOwnClient {

		@Bean(destroyMethod = "close")
		CuratorFramework ordersClient() throws InterruptedException {
			return startedClient();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CloudApplicationWithPrimaryClient {

		@Bean(destroyMethod = "close")
		@Primary
		CuratorFramework ordersClient() throws InterruptedException {
			return startedClient();
		}

	}

	private static CuratorFramework startedClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace("orders")
			.retryPolicy(new RetryOneTime(100))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		return client;
	}

}
