package io.zklock.boot35;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.health.LeadershipBoot3HealthContributorAutoConfiguration;
import io.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import io.zklock.autoconfigure.metrics.LeadershipMetricsAutoConfiguration;
import io.zklock.health.LeadershipBoot3HealthContributor;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;
import io.zklock.metrics.LeadershipMetrics;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * zklock's leadership on Spring Boot 3.5: a role from the properties alone, its health through the
 * Boot 3.5 contributor (from lock-autoconfigure/boot3), and its meters in Boot 3.5's registry. The
 * rest of the leadership tests run here from zklock-spring-boot's test jar.
 */
@EmbeddedZooKeeper
@Timeout(60)
class Boot35LeadershipTests {

	private static ApplicationContextRunner runner(TestZooKeeper zookeeper) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LeadershipAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true");
	}

	@Test
	void shouldReportEachRoleThroughTheBoot35Contributor(TestZooKeeper zookeeper) {
		runner(zookeeper)
			.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					LeadershipBoot3HealthContributorAutoConfiguration.class))
			.run((context) -> {
				Term term = awaitTerm(context.getBean(LeaderElection.class));
				assertThat(context).hasSingleBean(LeadershipBoot3HealthContributor.class);
				LeadershipBoot3HealthContributor contributor = context.getBean(LeadershipBoot3HealthContributor.class);
				assertThat(contributor.stream().map((entry) -> entry.getName())).containsExactly("billing-close");
				Health health = ((HealthIndicator) contributor.getContributor("billing-close")).health();
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("state", "LEADER")
					.containsEntry("fencingToken", term.fencingToken());
			});
	}

	@Test
	void shouldMeasureLeadershipInTheBoot35Registry(TestZooKeeper zookeeper) {
		runner(zookeeper)
			.withConfiguration(AutoConfigurations.of(LeadershipMetricsAutoConfiguration.class,
					MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class))
			.run((context) -> {
				awaitTerm(context.getBean(LeaderElection.class));
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				await().atMost(Duration.ofSeconds(20))
					.until(() -> registry.find(LeadershipMetrics.LEADER).tags("role", "billing-close").gauge() != null
							&& registry.get(LeadershipMetrics.LEADER).tags("role", "billing-close").gauge().value() == 1);
			});
	}

	private static Term awaitTerm(LeaderElection election) throws InterruptedException {
		return election.candidacy("billing-close").orElseThrow().awaitTerm(Duration.ofSeconds(20)).orElseThrow();
	}

}
