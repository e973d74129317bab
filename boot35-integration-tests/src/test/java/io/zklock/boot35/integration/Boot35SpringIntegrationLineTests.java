package io.zklock.boot35.integration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class path this module runs zklock-spring-integration's tests on: Boot 3.5 and Spring
 * Integration 6.5, which zklock-spring-integration was not compiled against.
 */
class Boot35SpringIntegrationLineTests {

	@Test
	void shouldRunOnBoot35AndSpringIntegration65() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(LockRegistry.class.getPackage().getImplementationVersion()).startsWith("6.5.");
		System.out.println("[versions] Spring Boot " + SpringBootVersion.getVersion() + ", Spring Integration "
				+ LockRegistry.class.getPackage().getImplementationVersion());
	}

}
