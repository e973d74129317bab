package io.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The Curator client, built from {@code zklock.zookeeper.*} unless the application (or
 * Spring Cloud Zookeeper) defines its own {@link CuratorFramework}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(CuratorFramework.class)
class CuratorClientConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkLockConnectionDetails zkLockConnectionDetails(ZkLockProperties properties) {
		return new PropertiesZkLockConnectionDetails(properties.getZookeeper());
	}

	@Bean
	CuratorSafeNotifyExecutor zkLockCuratorSafeNotifyExecutor() {
		return new CuratorSafeNotifyExecutor();
	}

	@Bean(destroyMethod = "close")
	CuratorFramework zkLockCuratorFramework(ZkLockProperties properties, ZkLockConnectionDetails connectionDetails,
			CuratorSafeNotifyExecutor safeNotifyExecutor, ObjectProvider<CuratorFrameworkCustomizer> customizers,
			Environment environment, ObjectProvider<LoggingSystem> loggingSystem) {
		return new CuratorClientFactory(properties, connectionDetails, new ZkLockPropertyChecks(environment),
				loggingSystem.getIfAvailable(() -> LoggingSystem.get(CuratorClientConfiguration.class.getClassLoader())))
			.createAndStart(safeNotifyExecutor.getExecutor(), customizers.orderedStream().toList());
	}

}
