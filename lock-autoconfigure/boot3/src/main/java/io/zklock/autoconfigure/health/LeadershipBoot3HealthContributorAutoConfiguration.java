package io.zklock.autoconfigure.health;

import io.zklock.health.LeadershipBoot3HealthContributor;
import io.zklock.leadership.LeaderElection;

import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for {@link LeadershipBoot3HealthContributor}
 * on Spring Boot 3.5: the counterpart of {@code LeadershipHealthContributorAutoConfiguration}, with
 * the same health key {@code leadership} and switch ({@code management.health.leadership.enabled=false}).
 * It matches only where Boot 3.5's health types are on the classpath, so on each Boot line exactly
 * one of the two applies.
 *
 * @author zklock
 */
@AutoConfiguration(afterName = "io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration")
@ConditionalOnClass(name = { "org.apache.curator.framework.CuratorFramework",
		"org.springframework.boot.actuate.health.CompositeHealthContributor",
		"org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator" })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean(LeaderElection.class)
@ConditionalOnEnabledHealthIndicator("leadership")
public final class LeadershipBoot3HealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "leadershipHealthIndicator", "leadershipHealthContributor" })
	LeadershipBoot3HealthContributor leadershipHealthContributor(LeaderElection election) {
		return new LeadershipBoot3HealthContributor(election);
	}

}
