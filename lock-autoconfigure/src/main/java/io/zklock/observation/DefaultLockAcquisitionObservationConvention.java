package io.zklock.observation;

import java.util.Locale;

import io.micrometer.common.KeyValues;

/**
 * The default {@link LockAcquisitionObservationConvention}: observation
 * {@value #NAME}, contextual (span) name {@code "acquire <lock name>"}.
 * <ul>
 * <li>Low-cardinality keys: {@code lock} (the lock's name, such as {@code "orders"}),
 * {@code mode} ({@code exclusive}, {@code read}, {@code write}) and, once the acquire has
 * ended, {@code outcome} ({@code acquired}, {@code timeout}, {@code error}).</li>
 * <li>High-cardinality keys: {@code lock.path} (such as {@code "orders/42"}) and, once
 * granted, {@code fencing.token}.</li>
 * </ul>
 * Its name differs from the {@code zklock.acquire} timer of
 * {@link io.zklock.metrics.LockMetricsListener}, so a meter handler that turns observations
 * into timers creates no second meter of that name with other tags.
 *
 * <p>
 * Thread-safe.
 */
public class DefaultLockAcquisitionObservationConvention implements LockAcquisitionObservationConvention {

	/** Name of the observation. */
	public static final String NAME = "zklock.acquisition";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockAcquisitionContext context) {
		return "acquire " + context.getLockName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockAcquisitionContext context) {
		KeyValues keyValues = KeyValues.of("lock", context.getLockName(), "mode",
				context.getMode().name().toLowerCase(Locale.ROOT));
		String outcome = context.getOutcome();
		return (outcome != null) ? keyValues.and("outcome", outcome) : keyValues;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockAcquisitionContext context) {
		KeyValues keyValues = KeyValues.of("lock.path", context.getLockPath());
		return ((context.getFencingToken() != 0) ? keyValues.and("fencing.token",
				Long.toString(context.getFencingToken())) : keyValues);
	}

}
