package io.zklock.autoconfigure.endpoint;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import io.zklock.endpoint.LeadershipEndpoint;
import io.zklock.leadership.LeaderElection;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@code leadership} actuator endpoint
 * ({@link LeadershipEndpoint}). Needs {@code spring-boot-actuator-autoconfigure} and a
 * {@link LeaderElection} bean; like every endpoint it must also be exposed, for example with
 * {@code management.endpoints.web.exposure.include=health,leadership}, and its yield (a write
 * operation) needs {@code management.endpoint.leadership.access=unrestricted}.
 *
 * @author zklock
 */
@AutoConfiguration(after = LeadershipAutoConfiguration.class)
@ConditionalOnClass({ CuratorFramework.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean(LeaderElection.class)
@ConditionalOnAvailableEndpoint(LeadershipEndpoint.class)
public final class LeadershipEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeadershipEndpoint leadershipEndpoint(LeaderElection election) {
		return new LeadershipEndpoint(election);
	}

}
