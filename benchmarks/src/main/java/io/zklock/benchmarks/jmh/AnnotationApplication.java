package io.zklock.benchmarks.jmh;

import java.util.Map;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;

/**
 * The Spring Boot application of the annotation scenario: zklock's auto-configuration with
 * its defaults (namespace {@code zklock}, lock root {@code /locks}), AOP, a locked and a plain
 * {@link Orders} bean.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ AopAutoConfiguration.class, ZkLockAutoConfiguration.class })
public class AnnotationApplication {

	@Bean
	LockedOrders lockedOrders() {
		return new LockedOrders();
	}

	@Bean
	Orders plainOrders() {
		return new Orders();
	}

	/**
	 * Starts the application against a server.
	 * @param connectString the server's connect string
	 * @param extraSources more configuration classes, such as {@link InMemoryLockConfiguration}
	 * @return the running context
	 */
	public static ConfigurableApplicationContext start(String connectString, Class<?>... extraSources) {
		Class<?>[] sources = new Class<?>[extraSources.length + 1];
		sources[0] = AnnotationApplication.class;
		System.arraycopy(extraSources, 0, sources, 1, extraSources.length);
		return new SpringApplicationBuilder(sources).web(WebApplicationType.NONE)
			.bannerMode(org.springframework.boot.Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(Map.of("zklock.zookeeper.connect-string", connectString))
			.run();
	}

}
