package io.zklock.autoconfigure.endpoint;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.endpoint.LocksEndpoint;
import io.zklock.lock.LockEngine;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@code locks} actuator endpoint
 * ({@link LocksEndpoint}). Needs {@code spring-boot-actuator-autoconfigure}; like every
 * endpoint it must also be exposed, for example with
 * {@code management.endpoints.web.exposure.include=health,locks}.
 *
 * @author zklock
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class)
@ConditionalOnClass({ CuratorFramework.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean(LockEngine.class)
@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
public final class LocksEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LocksEndpoint locksEndpoint(LockEngine engine) {
		return new LocksEndpoint(engine);
	}

}
