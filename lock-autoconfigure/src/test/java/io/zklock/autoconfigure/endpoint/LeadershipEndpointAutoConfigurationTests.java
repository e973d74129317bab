package io.zklock.autoconfigure.endpoint;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.leadership.LeadershipTest;
import io.zklock.endpoint.CandidateDescriptor;
import io.zklock.endpoint.LeadershipDescriptor;
import io.zklock.endpoint.LeadershipEndpoint;
import io.zklock.endpoint.RoleDescriptor;
import io.zklock.endpoint.YieldDescriptor;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.Term;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeadershipEndpointAutoConfiguration} and {@link LeadershipEndpoint}, its
 * operations called directly (over HTTP: {@code LeadershipEndpointWebTests}).
 */
@Timeout(60)
class LeadershipEndpointAutoConfigurationTests extends LeadershipTest {

	private ApplicationContextRunner endpointOf(String instance) {
		return instance(instance).withConfiguration(AutoConfigurations.of(LeadershipEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=leadership",
					"zklock.leadership.roles.billing-close.candidate=true");
	}

	@Test
	void shouldListTheRolesWithTheTermTheLeaderAndTheCandidatesOfEveryInstance() throws Exception {
		try (CuratorFramework other = otherClient()) {
			InterProcessMutex curatorPeer = new InterProcessMutex(other, "/leaders/nightly");
			endpointOf("a").withPropertyValues("zklock.leadership.roles.reports.candidate=true").run((a) -> {
				Term term = awaitTerm(a, "billing-close");
				endpointOf("b").run((b) -> {
					await().atMost(WAIT).until(() -> a.getBean(LeadershipEndpoint.class).role(new String[] { "billing-close" })
						.candidates().size() == 2);
					LeadershipDescriptor roles = a.getBean(LeadershipEndpoint.class).roles();
					assertThat(roles.rootPath()).isEqualTo("/leaders");
					assertThat(roles.roles()).containsOnlyKeys("billing-close", "reports");
					RoleDescriptor role = roles.roles().get("billing-close");
					assertThat(role.state()).isEqualTo(CandidacyState.LEADER);
					assertThat(role.leader()).isTrue();
					assertThat(role.term().fencingToken()).isEqualTo(term.fencingToken());
					assertThat(role.term().since()).isEqualTo(term.since());
					assertThat(role.term().active()).isTrue();
					assertThat(role.currentLeader().instance()).isEqualTo("a");
					assertThat(role.candidates()).extracting(CandidateDescriptor::instance).containsExactly("a", "b");
					assertThat(role.candidates()).extracting(CandidateDescriptor::thisInstance).containsExactly(true, false);
					assertThat(role.candidates()).extracting(CandidateDescriptor::position).containsExactly(0, 1);
					assertThat(role.candidatesError()).isNull();

					RoleDescriptor onFollower = b.getBean(LeadershipEndpoint.class).role(new String[] { "billing-close" });
					assertThat(onFollower.state()).isEqualTo(CandidacyState.FOLLOWER);
					assertThat(onFollower.leader()).isFalse();
					assertThat(onFollower.term()).isNull();
					assertThat(onFollower.currentLeader().instance()).isEqualTo("a");
				});
				// a role this instance is no candidate for: its candidates still show (a Curator peer here)
				curatorPeer.acquire();
				try {
					RoleDescriptor notJoined = a.getBean(LeadershipEndpoint.class).role(new String[] { "nightly" });
					assertThat(notJoined.state()).isNull();
					assertThat(notJoined.leader()).isFalse();
					assertThat(notJoined.candidates()).singleElement().satisfies((peer) -> {
						assertThat(peer.leader()).isTrue();
						assertThat(peer.thisInstance()).isFalse();
						assertThat(peer.host()).as("a Curator peer's node says nothing of its holder").isNull();
					});
				}
				finally {
					curatorPeer.release();
				}
			});
		}
	}

	@Test
	void shouldYieldTheTermToTheOtherInstance() {
		endpointOf("a").run((a) -> {
			Term term = awaitTerm(a, "billing-close");
			endpointOf("b").run((b) -> {
				YieldDescriptor yielded = a.getBean(LeadershipEndpoint.class).yield(new String[] { "billing-close" });
				assertThat(yielded.role()).isEqualTo("billing-close");
				assertThat(yielded.yielded()).isTrue();
				assertThat(yielded.fencingToken()).isEqualTo(term.fencingToken());
				assertThat(awaitTerm(b, "billing-close").fencingToken()).isGreaterThan(term.fencingToken());
				assertThat(leads(a, "billing-close")).isFalse();
				YieldDescriptor nothing = a.getBean(LeadershipEndpoint.class).yield(new String[] { "billing-close" });
				assertThat(nothing.yielded()).isFalse();
				assertThat(nothing.fencingToken()).isNull();
				assertThat(nothing.state()).isEqualTo(CandidacyState.FOLLOWER);
			});
		});
	}

	@Test
	void shouldRefuseAnInvalidRoleAndAYieldOfARoleThisInstanceIsNoCandidateFor() {
		endpointOf("a").run((a) -> {
			LeadershipEndpoint endpoint = a.getBean(LeadershipEndpoint.class);
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.role(new String[] { "billing", "..", "close" }))
				.withMessageStartingWith("Role 'billing/../close' is invalid: ");
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.yield(new String[] { "nightly" }))
				.withMessage("This instance is no candidate for role 'nightly', so it has no term to yield");
		});
	}

	@Test
	void shouldNotCreateTheEndpointWhenNotExposed() {
		instance("a").withConfiguration(AutoConfigurations.of(LeadershipEndpointAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeadershipEndpoint.class));
	}

	@Test
	void shouldNotCreateTheEndpointWithoutLeadership() {
		endpointOf("a").withPropertyValues("zklock.leadership.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeadershipEndpoint.class));
	}

}
