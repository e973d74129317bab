package io.zklock.autoconfigure.leadership;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.leadership.Term;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.event.AbstractLeaderEvent;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;
import org.springframework.integration.support.SmartLifecycleRoleController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Spring Integration on the class path, zklock's leadership publishes its
 * {@link OnGrantedEvent} and {@link OnRevokedEvent} too, so an application written for Spring
 * Integration's leader initiators ({@code @EventListener}s of those events, a
 * {@link SmartLifecycleRoleController} that starts the endpoints of a role) works unchanged with
 * {@code zklock.leadership.roles.*} instead of an initiator bean.
 */
@Timeout(60)
class LeadershipSpringIntegrationEventsTests extends LeadershipTest {

	@Test
	void shouldPublishSpringIntegrationsLeaderEventsWithAContextOverTheCandidacy() {
		instance("a").withUserConfiguration(IntegrationListeners.class)
			.withPropertyValues("zklock.leadership.roles.cluster.candidate=true")
			.run((context) -> {
				IntegrationListeners listeners = context.getBean(IntegrationListeners.class);
				Term first = awaitTerm(context, "cluster");
				await().atMost(WAIT).until(() -> !listeners.events.isEmpty());
				OnGrantedEvent granted = (OnGrantedEvent) listeners.events.get(0);
				assertThat(granted.getRole()).isEqualTo("cluster");
				Context siContext = granted.getContext();
				assertThat(siContext.isLeader()).isTrue();
				assertThat(siContext.getRole()).isEqualTo("cluster");
				// Spring Integration's yield: revoked, then (the only candidate) granted a new term
				siContext.yield();
				await().atMost(WAIT).until(() -> listeners.events.size() == 3);
				assertThat(listeners.events.get(1)).isInstanceOf(OnRevokedEvent.class);
				assertThat(listeners.events.get(2)).isInstanceOf(OnGrantedEvent.class);
				assertThat(awaitTerm(context, "cluster").fencingToken()).isGreaterThan(first.fencingToken());
			});
	}

	@Test
	void shouldStartAndStopTheEndpointsOfARoleThroughSpringIntegrationsRoleController() {
		TransitionLog log = new TransitionLog();
		RecordingLifecycle endpoint = new RecordingLifecycle(log, "a", "inboundAdapter", 0);
		instance("a").withBean(SmartLifecycleRoleController.class, () -> {
			SmartLifecycleRoleController controller = new SmartLifecycleRoleController();
			controller.addLifecycleToRole("cluster", endpoint);
			return controller;
		}).withPropertyValues("zklock.leadership.roles.cluster.candidate=true").run((context) -> {
			awaitTerm(context, "cluster");
			await().atMost(WAIT).until(endpoint::isRunning);
			context.getBean(io.zklock.leadership.LeaderElection.class).candidacy("cluster").orElseThrow()
				.stepDown(io.zklock.leadership.RevocationReason.UNHEALTHY);
			assertThat(endpoint.isRunning()).as("stopped before the step-down returned").isFalse();
			assertThat(log.entries()).containsExactly("a: start inboundAdapter", "a: stop inboundAdapter");
		});
	}

	@Test
	void shouldPublishOnlyItsOwnEventsWithoutSpringIntegration() {
		instance("a").withClassLoader(new FilteredClassLoader("org.springframework.integration"))
			.withPropertyValues("zklock.leadership.roles.cluster.candidate=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitTerm(context, "cluster");
				assertThat(context.getBeansOfType(RoleEvents.class)).isEmpty();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class IntegrationListeners {

		final List<AbstractLeaderEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void onLeaderEvent(AbstractLeaderEvent event) {
			this.events.add(event);
		}

	}

}
