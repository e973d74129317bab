package io.zklock.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * {@link ObservationConvention} for lock acquires. Define a bean of this type to rename the
 * observation or change its key values; {@link DefaultLockAcquisitionObservationConvention}
 * is the default.
 */
public interface LockAcquisitionObservationConvention extends ObservationConvention<LockAcquisitionContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockAcquisitionContext;
	}

}
