package io.zklock.autoconfigure.observation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.leadership.LeadershipTest;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.Term;
import io.zklock.observation.DefaultLeadershipObservationConvention;
import io.zklock.observation.LeadershipObservations;
import io.zklock.observation.LeadershipTransitionContext;

import org.springframework.boot.autoconfigure.AutoConfigurations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LeadershipObservationAutoConfiguration} and {@link LeadershipObservations}: one
 * observation per transition of a term, around the start or stop of its leader-scoped work.
 */
@Timeout(60)
class LeadershipObservationAutoConfigurationTests extends LeadershipTest {

	@Test
	void shouldObserveTheGrantAndTheRevocationOfATerm() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		List<LeadershipTransitionContext> stopped = new CopyOnWriteArrayList<>();
		registry.observationConfig().observationHandler(new ObservationHandler<LeadershipTransitionContext>() {

			@Override
			public void onStop(LeadershipTransitionContext context) {
				stopped.add(context);
			}

			@Override
			public boolean supportsContext(Observation.Context context) {
				return context instanceof LeadershipTransitionContext;
			}

		});
		instance("a").withConfiguration(AutoConfigurations.of(LeadershipObservationAutoConfiguration.class))
			.withBean(ObservationRegistry.class, () -> registry)
			.withPropertyValues("zklock.leadership.roles.billing-close.candidate=true")
			.run((context) -> {
				Term term = awaitTerm(context, "billing-close");
				await().atMost(WAIT).until(() -> stopped.size() == 1);
				context.getBean(LeaderElection.class).candidacy("billing-close").orElseThrow().yield();
				await().atMost(WAIT).until(() -> stopped.size() == 3);
				TestObservationRegistryAssert.assertThat(registry)
					.hasNumberOfObservationsWithNameEqualTo(DefaultLeadershipObservationConvention.NAME, 3)
					.hasAnObservation((observation) -> observation.hasContextualNameEqualTo("revoked billing-close")
						.hasLowCardinalityKeyValue("role", "billing-close")
						.hasLowCardinalityKeyValue("transition", "revoked")
						.hasLowCardinalityKeyValue("reason", "yielded")
						.hasHighCardinalityKeyValue("fencing.token", Long.toString(term.fencingToken()))
						.doesNotHaveError());
				LeadershipTransitionContext first = stopped.get(0);
				assertThat(first.getTransition()).isEqualTo(LeadershipTransitionContext.GRANTED);
				assertThat(first.getFencingToken()).isEqualTo(term.fencingToken());
				assertThat(first.getLowCardinalityKeyValue("reason")).isEqualTo(KeyValue.of("reason", "none"));
			});
	}

	@Test
	void shouldNotObserveWithoutARegistry() {
		instance("a").withConfiguration(AutoConfigurations.of(LeadershipObservationAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LeadershipObservations.class));
	}

}
