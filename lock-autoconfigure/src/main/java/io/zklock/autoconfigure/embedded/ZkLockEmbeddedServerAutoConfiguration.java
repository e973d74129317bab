package io.zklock.autoconfigure.embedded;

import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockConnectionDetails;
import io.zklock.autoconfigure.ZkLockProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for an in-process ZooKeeper server,
 * enabled by {@code zklock.zookeeper.embedded.enabled=true}. The server starts before
 * zklock's client, which connects to it, and stops after the client has closed.
 *
 * @author zklock
 */
@AutoConfiguration(before = ZkLockAutoConfiguration.class)
@ConditionalOnClass(ZooKeeperServerEmbedded.class)
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("zklock.zookeeper.embedded.enabled")
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZkLockEmbeddedServerAutoConfiguration {

	@Bean(destroyMethod = "destroy")
	@ConditionalOnMissingBean
	EmbeddedZooKeeperServer zkLockEmbeddedZooKeeperServer(ZkLockProperties properties) {
		return new EmbeddedZooKeeperServer(properties.getZookeeper().getEmbedded().getPort());
	}

	@Bean
	@ConditionalOnMissingBean
	ZkLockConnectionDetails zkLockConnectionDetails(EmbeddedZooKeeperServer server) {
		return server::getConnectString;
	}

}
