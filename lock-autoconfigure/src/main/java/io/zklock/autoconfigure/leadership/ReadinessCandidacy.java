package io.zklock.autoconfigure.leadership;

import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationListener;

/**
 * Makes this instance a candidate only while its readiness accepts traffic
 * ({@code zklock.leadership.yield-when-not-ready=true}): Spring Boot publishes
 * {@link ReadinessState#ACCEPTING_TRAFFIC} when the application is ready and
 * {@link ReadinessState#REFUSING_TRAFFIC} when it is told to refuse traffic or shuts down.
 */
final class ReadinessCandidacy implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

	private final LeadershipLifecycle lifecycle;

	ReadinessCandidacy(LeadershipLifecycle lifecycle) {
		this.lifecycle = lifecycle;
	}

	@Override
	public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
		this.lifecycle.readinessChanged(event.getState() == ReadinessState.ACCEPTING_TRAFFIC);
	}

}
