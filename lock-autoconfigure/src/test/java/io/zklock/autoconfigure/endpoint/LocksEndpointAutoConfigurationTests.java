package io.zklock.autoconfigure.endpoint;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.endpoint.LocksEndpoint;
import io.zklock.lock.LockEngine;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LocksEndpointAutoConfiguration}.
 */
@Timeout(60)
class LocksEndpointAutoConfigurationTests {

	private static TestingServer server;

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, LocksEndpointAutoConfiguration.class))
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
	void shouldCreateEndpointWhenExposed() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasSingleBean(LocksEndpoint.class));
	}

	@Test
	void shouldNotCreateEndpointWhenNotExposed() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void shouldNotCreateEndpointWhenAccessIsNone() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=locks", "management.endpoint.locks.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void shouldNotCreateEndpointWithoutActuator() {
		// only the guarding class: a runner loads auto-configurations directly, without the
		// early filter on spring-autoconfigure-metadata.properties that an application has
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LockEngine.class)
				.doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void shouldNotCreateEndpointWhenZkLockIsDisabled() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=locks", "zklock.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void shouldBackOffWhenUserDefinesEndpoint() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.withUserConfiguration(CustomEndpointConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LocksEndpoint.class).hasBean("customLocksEndpoint"));
	}

	@Configuration(proxyBeanMethods = false)
	private static final class CustomEndpointConfiguration {

		@Bean
		LocksEndpoint customLocksEndpoint(LockEngine engine) {
			return new LocksEndpoint(engine);
		}

	}

}
