package io.zklock.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.leadership.LeadershipTest;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;
import io.zklock.metrics.LeadershipMetrics;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeadershipMetricsAutoConfiguration} and {@link LeadershipMetrics}, with a
 * registry bean of the application's (so the same test runs on Boot 3.5 and 4): the leader gauge
 * sums to one over the instances, the transitions are counted by reason, the meters alerts watch
 * exist at zero, and the time from a revocation to the stopped work is recorded.
 */
@Timeout(60)
class LeadershipMetricsAutoConfigurationTests extends LeadershipTest {

	private ApplicationContextRunner metered(String instance) {
		return instance(instance).withConfiguration(AutoConfigurations.of(LeadershipMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true");
	}

	@Test
	void shouldMeasureOneLeaderOverTheInstances() {
		metered("a").run((a) -> {
			awaitTerm(a, "billing-close");
			metered("b").run((b) -> {
				await().atMost(WAIT).until(() -> b.getBean(MeterRegistry.class).find(LeadershipMetrics.LEADER).gauge() != null);
				assertThat(leaderGauge(a)).isEqualTo(1);
				assertThat(leaderGauge(b)).isEqualTo(0);
				MeterRegistry onFollower = b.getBean(MeterRegistry.class);
				assertThat(onFollower.get(LeadershipMetrics.TRANSITIONS)
					.tags("role", "billing-close", "transition", "revoked", "reason", "session_lost")
					.counter()
					.count()).as("registered at zero for the alerts").isZero();
				assertThat(onFollower.get("zklock.skipped").tags("lock", "billing-close", "mode", "leader").counter()
					.count()).isZero();
			});
		});
	}

	@Test
	void shouldCountTransitionsAndTimeTheStopOfTheWork() {
		metered("a").run((context) -> {
			Term term = awaitTerm(context, "billing-close");
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			await().atMost(WAIT).until(() -> transitions(registry, "granted", "none") == 1);
			context.getBean(LeaderElection.class).candidacy("billing-close").orElseThrow().yield();
			await().atMost(WAIT).until(() -> transitions(registry, "granted", "none") == 2);
			assertThat(transitions(registry, "revoked", "yielded")).isEqualTo(1);
			Timer stopped = registry.get(LeadershipMetrics.WORK_STOPPED)
				.tags("role", "billing-close", "reason", "yielded")
				.timer();
			assertThat(stopped.count()).isEqualTo(1);
			assertThat(awaitTerm(context, "billing-close").fencingToken()).isGreaterThan(term.fencingToken());

			// a suspended connection: timed from the suspension Curator reported
			dropConnection(context);
			await().atMost(WAIT).until(() -> registry.find(LeadershipMetrics.WORK_STOPPED)
				.tags("reason", "connection_suspended")
				.timer() != null);
			assertThat(registry.get(LeadershipMetrics.WORK_STOPPED).tags("reason", "connection_suspended").timer()
				.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
			assertThat(transitions(registry, "revoked", "connection_suspended")).isEqualTo(1);
		});
	}

	@Test
	void shouldNotMeasureWithoutARegistry() {
		instance("a").withConfiguration(AutoConfigurations.of(LeadershipMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeadershipMetrics.class));
	}

	private static double leaderGauge(ApplicationContext context) {
		return context.getBean(MeterRegistry.class).get(LeadershipMetrics.LEADER).tags("role", "billing-close").gauge()
			.value();
	}

	private static double transitions(MeterRegistry registry, String transition, String reason) {
		return registry.get(LeadershipMetrics.TRANSITIONS)
			.tags("role", "billing-close", "transition", transition, "reason", reason)
			.counter()
			.count();
	}

}
