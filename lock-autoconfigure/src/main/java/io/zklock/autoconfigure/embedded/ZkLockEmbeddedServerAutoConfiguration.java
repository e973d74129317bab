package io.zklock.autoconfigure.embedded;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockConnectionDetails;
import io.zklock.autoconfigure.ZkLockProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for an in-process ZooKeeper server,
 * enabled by {@code zklock.zookeeper.embedded.enabled=true}. The server starts before
 * zklock's client, which connects to it, and stops after the client has closed. A
 * {@code zklock.zookeeper.connect-string} that is also set is then ignored, which start-up
 * says in one warning. The server needs {@code metrics-core} and {@code snappy-java} at run
 * time: depend on {@code zklock-spring-boot-starter-embedded}, which brings them.
 *
 * @author zklock
 */
@AutoConfiguration(before = ZkLockAutoConfiguration.class)
@ConditionalOnClass(ZooKeeperServerEmbedded.class)
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("zklock.zookeeper.embedded.enabled")
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZkLockEmbeddedServerAutoConfiguration {

	private static final Log logger = LogFactory.getLog(ZkLockEmbeddedServerAutoConfiguration.class);

	private static final String CONNECT_STRING = "zklock.zookeeper.connect-string";

	private static final String PORT = "zklock.zookeeper.embedded.port";

	@Bean(destroyMethod = "destroy")
	@ConditionalOnMissingBean
	EmbeddedZooKeeperServer zkLockEmbeddedZooKeeperServer(ZkLockProperties properties,
			ObjectProvider<LoggingSystem> loggingSystem) {
		LoggingSystem logging = loggingSystem
			.getIfAvailable(() -> LoggingSystem.get(ZkLockEmbeddedServerAutoConfiguration.class.getClassLoader()));
		int port = properties.getZookeeper().getEmbedded().getPort();
		if (port < 0 || port > 65535) {
			throw new InvalidConfigurationPropertyValueException(PORT, port,
					"it is not a port; use 0 for a free port, or a port between 1 and 65535");
		}
		return new EmbeddedZooKeeperServer(port, new EmbeddedServerLogLevels(logging));
	}

	@Bean
	@ConditionalOnMissingBean
	ZkLockConnectionDetails zkLockConnectionDetails(EmbeddedZooKeeperServer server, Environment environment) {
		String configured = Binder.get(environment).bind(CONNECT_STRING, String.class).orElse("");
		if (!configured.isBlank()) {
			logger.warn(CONNECT_STRING + "=" + withoutCredentials(configured) + " is ignored: "
					+ "zklock.zookeeper.embedded.enabled=true connects zklock's client to the in-process ZooKeeper "
					+ "server at " + server.getConnectString() + ". Remove one of the two settings.");
		}
		return server::getConnectString;
	}

	/** {@code user:password@host:port} → {@code host:port}, in every entry of a connect string. */
	private static String withoutCredentials(String connectString) {
		return connectString.replaceAll("[^,/@]*@", "");
	}

}
