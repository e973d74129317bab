package io.zklock.autoconfigure.health;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.leadership.LeadershipTest;
import io.zklock.health.LeadershipHealthContributor;
import io.zklock.leadership.Term;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeadershipHealthContributorAutoConfiguration} and
 * {@link LeadershipHealthContributor} on Boot 4, against a real ZooKeeper server: one entry per
 * role, {@code UP} for the leader and the follower, {@code UNKNOWN} in jeopardy. The Boot 3.5
 * counterpart is tested in {@code tests/boot35-tests}.
 */
@Timeout(90)
class LeadershipHealthContributorAutoConfigurationTests extends LeadershipTest {

	private ApplicationContextRunner healthOf(String instance) {
		return instance(instance)
			.withConfiguration(AutoConfigurations.of(LeadershipHealthContributorAutoConfiguration.class))
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true",
					"zklock.leadership.roles[billing/reports].candidate=true");
	}

	@Test
	void shouldReportTheLeaderAndTheFollowerOfEachRoleUp() {
		healthOf("a").run((a) -> {
			Term term = awaitTerm(a, "billing-close");
			awaitTerm(a, "billing/reports");
			healthOf("b").run((b) -> {
				assertThat(a).hasSingleBean(LeadershipHealthContributor.class).hasBean("leadershipHealthContributor");
				LeadershipHealthContributor onLeader = a.getBean(LeadershipHealthContributor.class);
				assertThat(onLeader.stream().map(HealthContributors.Entry::name))
					.as("a role's '/' is a '.': health paths are made of contributor names")
					.containsExactlyInAnyOrder("billing-close", "billing.reports");
				Health leader = health(a, "billing-close");
				assertThat(leader.getStatus()).isEqualTo(Status.UP);
				assertThat(leader.getDetails()).containsEntry("role", "billing-close")
					.containsEntry("state", "LEADER")
					.containsEntry("leader", true)
					.containsEntry("fencingToken", term.fencingToken())
					.containsEntry("since", term.since().toString());
				assertThat((String) leader.getDetails().get("currentLeader")).startsWith("this instance (");
				await().atMost(WAIT).until(() -> health(b, "billing-close").getDetails().containsKey("currentLeader"));
				Health follower = health(b, "billing-close");
				assertThat(follower.getStatus()).isEqualTo(Status.UP);
				assertThat(follower.getDetails()).containsEntry("state", "FOLLOWER")
					.containsEntry("leader", false)
					.doesNotContainKey("fencingToken");
				assertThat((String) follower.getDetails().get("currentLeader")).contains("instance 'a'")
					.doesNotStartWith("this instance");
				assertThat(health(b, "billing.reports").getDetails()).containsEntry("role", "billing/reports");
			});
		});
	}

	@Test
	void shouldReportARoleInJeopardyUnknownUntilTheTermResumes() throws Exception {
		healthOf("a").run((a) -> {
			Term term = awaitTerm(a, "billing-close");
			server.stop();
			try {
				await().atMost(WAIT).until(() -> health(a, "billing-close").getStatus().equals(Status.UNKNOWN));
				Health jeopardy = health(a, "billing-close");
				assertThat(jeopardy.getDetails()).containsEntry("state", "JEOPARDY")
					.containsEntry("leader", false)
					.containsEntry("fencingToken", term.fencingToken())
					.containsEntry("revocationReason", "CONNECTION_SUSPENDED");
			}
			finally {
				server.restart();
			}
			await().atMost(WAIT).until(() -> health(a, "billing-close").getStatus().equals(Status.UP));
			assertThat(health(a, "billing-close").getDetails()).containsEntry("state", "LEADER")
				.containsEntry("fencingToken", term.fencingToken());
		});
	}

	@Test
	void shouldNotReportWhenLeadershipHealthIsDisabled() {
		healthOf("a").withPropertyValues("management.health.leadership.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LeadershipHealthContributor.class));
	}

	@Test
	void shouldNotReportWithoutLeadership() {
		healthOf("a").withPropertyValues("zklock.leadership.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LeadershipHealthContributor.class));
	}

	@Test
	void shouldListNoRoleWhenNoneIsJoined() {
		instance("a").withConfiguration(AutoConfigurations.of(LeadershipHealthContributorAutoConfiguration.class))
			.run((context) -> {
				LeadershipHealthContributor contributor = context.getBean(LeadershipHealthContributor.class);
				assertThat(contributor.stream()).isEmpty();
				assertThat(contributor.getContributor("billing-close")).isNull();
			});
	}

	private static Health health(ApplicationContext context, String name) {
		HealthIndicator indicator = (HealthIndicator) context.getBean(LeadershipHealthContributor.class)
			.getContributor(name);
		assertThat(indicator).as("the contributor of %s", name).isNotNull();
		return indicator.health();
	}

}
