package io.zklock.autoconfigure.observation;

import java.time.Duration;

import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

import io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import io.zklock.autoconfigure.leadership.LeadershipTransitionObserver;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.observation.LeadershipObservationConvention;
import io.zklock.observation.LeadershipObservations;

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
 * {@link EnableAutoConfiguration Auto-configuration} for the Micrometer observations of zklock's
 * leadership transitions ({@link LeadershipObservations}), applied through a
 * {@link LeadershipTransitionObserver}. Needs {@code micrometer-observation} and an
 * {@link ObservationRegistry} bean; a {@link LeadershipObservationConvention} bean replaces the
 * default convention. The same class serves Boot 3.5 and 4.
 *
 * @author zklock
 */
@AutoConfiguration(after = LeadershipAutoConfiguration.class,
		afterName = {
				// Boot 4
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				// Boot 3.5
				"org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass({ CuratorFramework.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "zklock.enabled", matchIfMissing = true)
@ConditionalOnBean({ LeaderElection.class, ObservationRegistry.class })
public final class LeadershipObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeadershipObservations zkLockLeadershipObservations(ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LeadershipObservationConvention> convention) {
		return new LeadershipObservations(SingletonSupplier.of(observationRegistry::getIfUnique),
				convention.getIfUnique());
	}

	@Bean
	LeadershipTransitionObserver zkLockLeadershipTransitionObservations(LeadershipObservations observations) {
		return new LeadershipTransitionObserver() {

			@Override
			public void granted(Term term, Runnable startWork) {
				observations.granted(term, startWork);
			}

			@Override
			public void revoked(Term term, RevocationReason reason, Duration sinceRevocation, Runnable stopWork) {
				observations.revoked(term, reason, stopWork);
			}

			@Override
			public String toString() {
				return "zklock's leadership observations";
			}

		};
	}

}
