package io.zklock.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * {@link ObservationConvention} for the transitions of this instance's terms. Define a bean of this
 * type to rename the observation or change its key values;
 * {@link DefaultLeadershipObservationConvention} is the default.
 */
public interface LeadershipObservationConvention extends ObservationConvention<LeadershipTransitionContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LeadershipTransitionContext;
	}

}
