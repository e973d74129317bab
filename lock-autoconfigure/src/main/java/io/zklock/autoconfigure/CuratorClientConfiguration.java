package io.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

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
			CuratorSafeNotifyExecutor safeNotifyExecutor, ObjectProvider<CuratorFrameworkCustomizer> customizers) {
		return new CuratorClientFactory(properties, connectionDetails.getConnectString())
			.createAndStart(safeNotifyExecutor.getExecutor(), customizers.orderedStream().toList());
	}

}
