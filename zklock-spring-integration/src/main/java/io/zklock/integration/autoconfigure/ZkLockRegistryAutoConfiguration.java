package io.zklock.integration.autoconfigure;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.integration.ZkLockRegistry;
import io.zklock.lock.ILockByCurator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of a {@link ZkLockRegistry} as Spring
 * Integration's {@link LockRegistry}: on when {@code spring-integration-core} (6.5 or 7.x) is on
 * the class path, zklock's lock beans exist, and the application defines no
 * {@link LockRegistry} of its own; off with
 * {@code zklock.integration.lock-registry.enabled=false}.
 *
 * @author zklock
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class)
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnBooleanProperty(name = "zklock.integration.lock-registry.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZkLockIntegrationProperties.class)
public final class ZkLockRegistryAutoConfiguration {

	@Bean
	@ConditionalOnBean(ILockByCurator.class)
	@ConditionalOnMissingBean(LockRegistry.class)
	ZkLockRegistry zkLockRegistry(ILockByCurator locks, ZkLockIntegrationProperties properties) {
		return new ZkLockRegistry(locks, properties.getLockRegistry().getPrefix());
	}

}
