package io.zklock.autoconfigure.health;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.health.ZkLockBoot3HealthIndicator;
import io.zklock.lock.LockEngine;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link ZkLockBoot3HealthIndicator}
 * on Spring Boot 3.5: the counterpart of {@code ZkLockHealthContributorAutoConfiguration},
 * with the same health key {@code zklock} and switch
 * ({@code management.health.zklock.enabled=false}). It matches only where Boot 3.5's health
 * types are on the classpath ({@code spring-boot-actuator} 3.x), which Boot 4 moved to
 * {@code spring-boot-health}; so on each Boot line exactly one of the two applies.
 *
 * @author zklock
 */
@AutoConfiguration(afterName = "io.zklock.autoconfigure.ZkLockAutoConfiguration")
@ConditionalOnClass(name = { "org.apache.curator.framework.CuratorFramework",
		"org.springframework.boot.actuate.health.AbstractHealthIndicator",
		"org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator" })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@ConditionalOnEnabledHealthIndicator("zklock")
public final class ZkLockBoot3HealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "zklockHealthIndicator", "zklockHealthContributor" })
	ZkLockBoot3HealthIndicator zklockHealthIndicator(ObjectProvider<CuratorFramework> curatorFramework,
			ObjectProvider<LockEngine> engine) {
		LockEngine locks = engine.getIfUnique();
		// the client the locks use, which matters when the application has more than one
		CuratorFramework client = (locks != null) ? locks.getClient() : curatorFramework.getObject();
		return new ZkLockBoot3HealthIndicator(client, locks);
	}

}
