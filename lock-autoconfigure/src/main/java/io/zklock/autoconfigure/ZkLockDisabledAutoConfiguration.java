package io.zklock.autoconfigure;

import io.zklock.interceptor.DisabledLockAdvisor;
import io.zklock.lock.ILockByCurator;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of zklock switched off
 * ({@code zklock.enabled=false}), so that an application written for zklock starts and runs
 * without locks, and every value zklock cannot give then says that zklock is disabled: an
 * {@link ILockByCurator} that refuses every acquire ({@link DisabledLockByCurator}), and an
 * advisor that runs annotated methods without locks and makes {@code LockContext} and
 * {@code ReactiveLockContext} say why they have no fencing token ({@link DisabledLockAdvisor}).
 * No ZooKeeper client, engine, health, metrics or endpoint bean is defined; an injection point
 * of such a type is explained by {@link ZkLockDisabledFailureAnalyzer}.
 *
 * @author zklock
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "zklock.enabled", havingValue = false)
public final class ZkLockDisabledAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DisabledLockAdvisor zkLockDisabledLockAdvisor(Environment environment) {
		DisabledLockAdvisor advisor = new DisabledLockAdvisor();
		advisor.setOrder(environment.getProperty("zklock.aspect-order", Integer.class,
				new ZkLockProperties().getAspectOrder()));
		return advisor;
	}

	/** The lock API, where Curator (which its signatures name) is on the class path. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.apache.curator.framework.CuratorFramework")
	static class DisabledLockApiConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ILockByCurator zkLockDisabledLocks() {
			return new DisabledLockByCurator();
		}

	}

}
