package io.zklock.autoconfigure.health;

import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import io.zklock.health.LeadershipHealthContributor;
import io.zklock.leadership.LeaderElection;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link LeadershipHealthContributor}:
 * health key {@code leadership}, one entry per role, switched off by
 * {@code management.health.leadership.enabled=false}. Needs {@code spring-boot-health} on the
 * classpath and a {@link LeaderElection} bean.
 *
 * @author zklock
 */
@AutoConfiguration(after = LeadershipAutoConfiguration.class)
@ConditionalOnClass({ CuratorFramework.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean(LeaderElection.class)
@ConditionalOnEnabledHealthIndicator("leadership")
public final class LeadershipHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "leadershipHealthIndicator", "leadershipHealthContributor" })
	LeadershipHealthContributor leadershipHealthContributor(LeaderElection election) {
		return new LeadershipHealthContributor(election);
	}

}
