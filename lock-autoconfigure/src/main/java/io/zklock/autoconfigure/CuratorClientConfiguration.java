package io.zklock.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.ssl.SslBundles;
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

	/**
	 * The SSL bundle named by {@code zklock.zookeeper.ssl.bundle}, if any; closed after the client, which depends
	 * on it, so that the client's copy of the material outlives it.
	 */
	@Bean(destroyMethod = "close")
	ClientSslBundle zkLockClientSslBundle(ZkLockProperties properties, ObjectProvider<SslBundles> sslBundles,
			Environment environment) {
		return ClientSslBundle.resolve(properties.getZookeeper().getSsl(), sslBundles.getIfAvailable(),
				new ZkLockPropertyChecks(environment));
	}

	@Bean(destroyMethod = "close")
	CuratorFramework zkLockCuratorFramework(ZkLockProperties properties, ZkLockConnectionDetails connectionDetails,
			CuratorSafeNotifyExecutor safeNotifyExecutor, ClientSslBundle sslBundle,
			ObjectProvider<CuratorFrameworkCustomizer> customizers, Environment environment,
			ObjectProvider<LoggingSystem> loggingSystem) {
		return new CuratorClientFactory(properties, connectionDetails, new ZkLockPropertyChecks(environment),
				loggingSystem.getIfAvailable(() -> LoggingSystem.get(CuratorClientConfiguration.class.getClassLoader())),
				sslBundle)
			.createAndStart(safeNotifyExecutor.getExecutor(), customizers.orderedStream().toList());
	}

}
