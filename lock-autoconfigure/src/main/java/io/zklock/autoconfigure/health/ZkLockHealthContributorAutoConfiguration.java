package io.zklock.autoconfigure.health;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.health.ZkLockHealthIndicator;
import io.zklock.lock.LockEngine;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link ZkLockHealthIndicator}:
 * health key {@code zklock}, switched off by {@code management.health.zklock.enabled=false}.
 * Needs {@code spring-boot-health} on the classpath and a {@link CuratorFramework} bean; it
 * watches the client of the {@link LockEngine} if there is one.
 *
 * @author zklock
 */
@AutoConfiguration(after = ZkLockAutoConfiguration.class)
@ConditionalOnClass({ CuratorFramework.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@ConditionalOnEnabledHealthIndicator("zklock")
public final class ZkLockHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "zklockHealthIndicator", "zklockHealthContributor" })
	ZkLockHealthIndicator zklockHealthIndicator(ObjectProvider<CuratorFramework> curatorFramework,
			ObjectProvider<LockEngine> engine) {
		LockEngine locks = engine.getIfUnique();
		// the client the locks use, which matters when the application has more than one
		CuratorFramework client = (locks != null) ? locks.getClient() : curatorFramework.getObject();
		return new ZkLockHealthIndicator(client, locks);
	}

}
