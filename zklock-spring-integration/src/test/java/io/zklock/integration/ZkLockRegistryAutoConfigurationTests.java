package io.zklock.integration;

import java.util.concurrent.locks.Lock;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.integration.autoconfigure.ZkLockRegistryAutoConfiguration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ZkLockRegistryAutoConfiguration}: a {@link ZkLockRegistry} when Spring Integration is
 * on the class path and the application defines no {@link LockRegistry}.
 */
class ZkLockRegistryAutoConfigurationTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockRegistryAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldConfigureAZkLockRegistryAsTheLockRegistry() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockRegistry.class).hasSingleBean(ZkLockRegistry.class);
			LockRegistry<?> registry = context.getBean(LockRegistry.class);
			Lock lock = registry.obtain("orders");
			assertThat(lock).isInstanceOf(FencedLock.class);
			assertThat(((ZkLockRegistry) registry).lockPath("orders")).isEqualTo("spring-integration/orders");
		});
	}

	@Test
	void shouldLockUnderTheConfiguredPrefix() {
		this.contextRunner.withPropertyValues("zklock.integration.lock-registry.prefix=billing/si")
			.run((context) -> assertThat(context.getBean(ZkLockRegistry.class).lockPath("42"))
				.isEqualTo("billing/si/42"));
	}

	@Test
	void shouldBackOffWhenUserDefinesALockRegistry() {
		this.contextRunner.withUserConfiguration(UserRegistryConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(ZkLockRegistry.class)
				.hasBean("userRegistry"));
	}

	@Test
	void shouldBackOffWhenDisabled() {
		this.contextRunner.withPropertyValues("zklock.integration.lock-registry.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockRegistry.class));
	}

	@Test
	void shouldBackOffWithoutSpringIntegration() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.integration"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockRegistry.class));
	}

	@Test
	void shouldBackOffWhenZkLockIsDisabled() {
		this.contextRunner.withPropertyValues("zklock.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockRegistry.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRegistryConfiguration {

		@Bean
		DefaultLockRegistry userRegistry() {
			return new DefaultLockRegistry();
		}

	}

}
