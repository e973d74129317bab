package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockProperties;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.leadership.event.LeaderChangedEvent;
import io.zklock.leadership.event.LeadershipEvent;
import io.zklock.leadership.event.LeadershipGrantedEvent;
import io.zklock.leadership.event.LeadershipRevokedEvent;
import io.zklock.lock.LockEngine;

import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeadershipAutoConfiguration}: the election bean and its settings, the roles
 * joined from {@code application.yml} alone, back-off, the events, readiness, and start-up failures
 * on bad settings.
 */
@Timeout(60)
class LeadershipAutoConfigurationTests extends LeadershipTest {

	@Test
	void shouldLeadARoleNamedOnlyInTheProperties() {
		instance("a").withPropertyValues("zklock.leadership.roles.billing-close.candidate=true").run((context) -> {
			assertThat(context).hasSingleBean(LeaderElection.class);
			Term term = awaitTerm(context, "billing-close");
			assertThat(term.fencingToken()).isPositive();
			LeaderElection election = context.getBean(LeaderElection.class);
			assertThat(election.getRootPath()).isEqualTo("/leaders");
			assertThat(election.leader("billing-close")).hasValueSatisfying((leader) -> {
				assertThat(leader.thisClient()).isTrue();
				assertThat(leader.instance()).isEqualTo("a");
			});
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getChildren().forPath("/leaders/billing-close")).hasSize(1);
		});
	}

	@Test
	void shouldJoinTheDeclaredRolesWhenEveryBeanIsLazy() {
		instance("a").withBean(LazyInitializationBeanFactoryPostProcessor.class)
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> assertThat(awaitTerm(context, "billing-close").fencingToken()).isPositive());
	}

	@Test
	void shouldJoinNoRoleWhenNoneIsDeclared() {
		instance("a").run((context) -> {
			assertThat(context).hasSingleBean(LeaderElection.class);
			assertThat(context.getBean(LeaderElection.class).candidacies()).isEmpty();
			assertThat(context.getBean(CuratorFramework.class).checkExists().forPath("/leaders")).isNull();
		});
	}

	@Test
	void shouldNotJoinARoleWhoseCandidateIsFalse() {
		instance("a")
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=false",
					"zklock.leadership.roles.reports.candidate=true")
			.run((context) -> {
				awaitTerm(context, "reports");
				assertThat(context.getBean(LeaderElection.class).candidacy("billing-close")).isEmpty();
			});
	}

	@Test
	void shouldJoinNoRoleWhenThisInstanceIsNoCandidateButARoleSaysItIs() {
		instance("a")
			.withPropertyValues("zklock.leadership.candidate=false", "zklock.leadership.roles.billing-close.leader-scoped-beans=",
					"zklock.leadership.roles.reports.candidate=true")
			.run((context) -> {
				LeaderElection election = context.getBean(LeaderElection.class);
				awaitTerm(context, "reports");
				assertThat(election.candidacy("billing-close")).isEmpty();
			});
	}

	@Test
	void shouldBindEveryLeadershipProperty() {
		instance("a").withUserConfiguration(TwoLifecycles.class)
			.withPropertyValues("zklock.leadership.root-path=/app/leaders", "zklock.leadership.handover-timeout=3s",
					"zklock.leadership.lease-factor=0.5", "zklock.leadership.yield-when-not-ready=true",
					"zklock.leadership.candidate=false", "zklock.leadership.roles[billing/close].candidate=true",
					"zklock.leadership.roles.billing-close.leader-scoped-beans=a,b")
			.run((context) -> {
				ZkLockProperties.Leadership leadership = context.getBean(ZkLockProperties.class).getLeadership();
				assertThat(leadership.getRootPath()).isEqualTo("/app/leaders");
				assertThat(leadership.getHandoverTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(leadership.getLeaseFactor()).isEqualTo(0.5);
				assertThat(leadership.isYieldWhenNotReady()).isTrue();
				assertThat(leadership.isCandidate()).isFalse();
				assertThat(leadership.getRoles()).containsOnlyKeys("billing/close", "billing-close");
				assertThat(leadership.getRoles().get("billing/close").getCandidate()).isTrue();
				assertThat(leadership.getRoles().get("billing-close").getLeaderScopedBeans()).containsExactly("a", "b");
			});
	}

	@Test
	void shouldUseTheLeadershipRootForRoles() {
		instance("a")
			.withPropertyValues("zklock.leadership.root-path=/app/leaders",
					"zklock.leadership.roles[billing/close].candidate=true")
			.run((context) -> {
				awaitTerm(context, "billing/close");
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getChildren().forPath("/app/leaders/billing/close")).hasSize(1);
			});
	}

	@Test
	void shouldBackOffWhenUserDefinesElection() {
		instance("a").withUserConfiguration(UserElectionConfiguration.class)
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(LeaderElection.class);
				LeaderElection election = context.getBean(LeaderElection.class);
				assertThat(election.getRootPath()).isEqualTo("/user/leaders");
				// the declared roles are still joined, on the application's election
				awaitTerm(context, "billing-close");
			});
	}

	@Test
	void shouldApplyCustomizersToTheElection() {
		instance("a").withUserConfiguration(CustomizerConfiguration.class)
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> {
				CustomizerConfiguration customizer = context.getBean(CustomizerConfiguration.class);
				awaitTerm(context, "billing-close");
				await().atMost(WAIT).until(() -> customizer.ranOnOwnExecutor);
			});
	}

	@Test
	void shouldNotConfigureLeadershipWhenDisabled() {
		instance("a")
			.withPropertyValues("zklock.leadership.enabled=false", "zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(LockEngine.class).doesNotHaveBean(LeaderElection.class);
				assertThat(context.getBean(CuratorFramework.class).checkExists().forPath("/leaders")).isNull();
			});
	}

	@Test
	void shouldPublishTheEventsOfAGrantAndARevocation() {
		instance("a").withUserConfiguration(EventRecorder.class)
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> {
				EventRecorder events = context.getBean(EventRecorder.class);
				Term first = awaitTerm(context, "billing-close");
				await().atMost(WAIT).until(() -> events.of(LeadershipGrantedEvent.class).size() == 1);
				LeadershipGrantedEvent granted = events.of(LeadershipGrantedEvent.class).get(0);
				assertThat(granted.getRole()).isEqualTo("billing-close");
				assertThat(granted.getTerm().fencingToken()).isEqualTo(first.fencingToken());
				assertThat(granted.getCandidacy().role()).isEqualTo("billing-close");
				assertThat(events.of(LeaderChangedEvent.class)).isNotEmpty()
					.allSatisfy((changed) -> assertThat(changed.getLeader()).hasValueSatisfying(
							(leader) -> assertThat(leader.thisClient()).isTrue()));
				// the only candidate yields: revoked, then granted a new term
				assertThat(granted.getCandidacy().yield()).isTrue();
				await().atMost(WAIT).until(() -> events.of(LeadershipGrantedEvent.class).size() == 2);
				LeadershipRevokedEvent revoked = events.of(LeadershipRevokedEvent.class).get(0);
				assertThat(revoked.getReason()).isEqualTo(RevocationReason.YIELDED);
				assertThat(revoked.getTerm().fencingToken()).isEqualTo(first.fencingToken());
				assertThat(events.of(LeadershipGrantedEvent.class).get(1).getTerm().fencingToken())
					.isGreaterThan(first.fencingToken());
			});
	}

	@Test
	void shouldJoinOnlyOnceReadyAndStepDownWhileReadinessRefusesTraffic() {
		instance("a").withUserConfiguration(EventRecorder.class)
			.withPropertyValues("zklock.leadership.yield-when-not-ready=true",
					"zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> {
				LeaderElection election = context.getBean(LeaderElection.class);
				assertThat(election.candidacy("billing-close")).as("not ready yet: no candidacy").isEmpty();
				AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
				Term term = awaitTerm(context, "billing-close");
				AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
				// the step-down is done when the publication returns: the node is deleted
				assertThat(term.isEnded()).isTrue();
				assertThat(term.revocationReason()).contains(RevocationReason.UNHEALTHY);
				assertThat(election.candidacy("billing-close").orElseThrow().state()).isEqualTo(CandidacyState.STOOD_DOWN);
				assertThat(context.getBean(CuratorFramework.class).getChildren().forPath("/leaders/billing-close"))
					.isEmpty();
				AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
				assertThat(awaitTerm(context, "billing-close").fencingToken()).isGreaterThan(term.fencingToken());
			});
	}

	@Test
	void shouldFailOnARoleThatIsNotALockPath() {
		instance("a").withPropertyValues("zklock.leadership.roles[billing//close].candidate=true").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("Property zklock.leadership.roles[billing//close] with value 'billing//close' is "
						+ "invalid: the role is not a valid lock path (");
		});
	}

	@Test
	void shouldFailOnALeaseFactorOutOfRange() {
		instance("a").withPropertyValues("zklock.leadership.lease-factor=1.5").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property zklock.leadership.lease-factor with value '1.5' is invalid: it must be greater "
						+ "than 0 and less than 1, such as 0.8: the lease must end before the server can expire the "
						+ "session");
		});
	}

	@Test
	void shouldFailOnANegativeHandoverTimeout() {
		instance("a").withPropertyValues("zklock.leadership.handover-timeout=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageStartingWith("Property zklock.leadership.handover-timeout with value 'PT-1S' is invalid: "
						+ "it must be zero or more");
		});
	}

	@Test
	void shouldFailOnALeadershipRootThatIsNotAPath() {
		instance("a").withPropertyValues("zklock.leadership.root-path=leaders").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property zklock.leadership.root-path with value 'leaders' is invalid: it must start with '/', "
						+ "for example '/leaders'; the default is '/leaders'");
		});
	}

	@Test
	void shouldFailOnALeaderScopedBeanThatDoesNotExist() {
		instance("a").withPropertyValues("zklock.leadership.roles.billing-close.leader-scoped-beans=invoiceListener")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(startupFailure(context.getStartupFailure()).getDescription())
					.isEqualTo("zklock.leadership.roles.billing-close.leader-scoped-beans names bean 'invoiceListener', "
							+ "but the application has no bean of that name, so no work of role 'billing-close' would "
							+ "be leader-scoped.");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class TwoLifecycles {

		@Bean
		RecordingLifecycle a() {
			return new RecordingLifecycle(new TransitionLog(), "a", "a", 0);
		}

		@Bean
		RecordingLifecycle b() {
			return new RecordingLifecycle(new TransitionLog(), "a", "b", 0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserElectionConfiguration {

		@Bean
		LeaderElection userElection(LockEngine engine) {
			return LeaderElection.builder(engine).rootPath("/user/leaders").build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizerConfiguration {

		volatile boolean ranOnOwnExecutor;

		private final ExecutorService executor = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "app-leadership-listener");
			thread.setDaemon(true);
			return thread;
		});

		@Bean
		LeaderElectionCustomizer listenerExecutor() {
			return (builder) -> builder.listenerExecutor(this.executor);
		}

		@Bean
		ApplicationListener<LeadershipGrantedEvent> grantedOnOwnExecutor() {
			return (event) -> this.ranOnOwnExecutor = Thread.currentThread().getName().equals("app-leadership-listener");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EventRecorder implements ApplicationListener<LeadershipEvent> {

		private final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(LeadershipEvent event) {
			this.events.add(event);
		}

		<E extends LeadershipEvent> List<E> of(Class<E> type) {
			return this.events.stream().filter(type::isInstance).map(type::cast).toList();
		}

	}

}
