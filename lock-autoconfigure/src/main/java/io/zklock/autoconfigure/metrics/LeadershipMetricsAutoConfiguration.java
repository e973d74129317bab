package io.zklock.autoconfigure.metrics;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import io.zklock.autoconfigure.leadership.LeadershipTransitionObserver;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.metrics.LeadershipMetrics;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.util.function.SingletonSupplier;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the meters of zklock's leadership
 * ({@link LeadershipMetrics}): the leader gauge and transition counters per role, and the time from
 * a revocation to the stopped leader-scoped work, recorded by a
 * {@link LeadershipTransitionObserver}. Needs {@code micrometer-core} and a {@link MeterRegistry}
 * bean. The same class serves Boot 3.5 and 4, ordered after the registry's auto-configuration of
 * either line by name.
 *
 * @author zklock
 */
@AutoConfiguration(after = LeadershipAutoConfiguration.class,
		afterName = {
				// Boot 4
				"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				// Boot 3.5
				"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ CuratorFramework.class, MeterRegistry.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean({ LeaderElection.class, MeterRegistry.class })
public final class LeadershipMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeadershipMetrics zkLockLeadershipMetrics(LeaderElection election, ObjectProvider<MeterRegistry> meterRegistry) {
		LeadershipMetrics metrics = new LeadershipMetrics(election, SingletonSupplier.of(meterRegistry::getIfUnique));
		election.addListener(metrics);
		return metrics;
	}

	@Bean
	LeadershipTransitionObserver zkLockLeadershipWorkStoppedTimer(LeadershipMetrics metrics) {
		return new LeadershipTransitionObserver() {

			@Override
			public void revoked(Term term, RevocationReason reason, Duration sinceRevocation, Runnable stopWork) {
				long start = System.nanoTime();
				try {
					stopWork.run();
				}
				finally {
					metrics.recordWorkStopped(term.role(), reason,
							sinceRevocation.plusNanos(System.nanoTime() - start));
				}
			}

			@Override
			public String toString() {
				return "zklock's " + LeadershipMetrics.WORK_STOPPED + " timer";
			}

		};
	}

}
