package io.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for zklock: a started, namespaced
 * {@link CuratorFramework} (unless the application has one), the lock beans
 * ({@link io.zklock.lock.ExclusiveLockByCurator}, {@link io.zklock.lock.SharedLockByCurator},
 * and thereby an unqualified {@link io.zklock.lock.ILockByCurator}) and the
 * {@link io.zklock.annotation.DistributedLock} interceptor. Runs after Spring Cloud
 * Zookeeper's auto-configuration, so that its client is reused instead of a second one built,
 * and after Spring Boot's SSL bundles ({@code zklock.zookeeper.ssl.bundle}). A {@code zklock.*}
 * property zklock does not have, a {@code zklock.*} value with a placeholder that nothing
 * resolves, and a Spring Boot line other than 3.5 and 4.x fail start-up before any bean is
 * created ({@code UnknownPropertiesCheck}, {@code UnresolvedPlaceholderCheck},
 * {@code BootLineCheck}).
 *
 * @author zklock
 */
@AutoConfiguration(after = SslAutoConfiguration.class,
		afterName = "org.springframework.cloud.zookeeper.ZookeeperAutoConfiguration")
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZkLockProperties.class)
@Import({ CuratorClientConfiguration.class, LockBeansConfiguration.class, DistributedLockConfiguration.class })
public final class ZkLockAutoConfiguration {

	@Bean
	static BootLineCheck zkLockBootLineCheck() {
		return new BootLineCheck();
	}

	@Bean
	static UnknownPropertiesCheck zkLockUnknownPropertiesCheck(Environment environment) {
		return new UnknownPropertiesCheck(environment);
	}

	@Bean
	static UnresolvedPlaceholderCheck zkLockUnresolvedPlaceholderCheck(Environment environment) {
		return new UnresolvedPlaceholderCheck(environment);
	}

}
