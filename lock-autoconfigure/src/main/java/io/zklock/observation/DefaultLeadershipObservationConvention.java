package io.zklock.observation;

import java.util.Locale;

import io.micrometer.common.KeyValues;

import io.zklock.leadership.RevocationReason;

/**
 * The default {@link LeadershipObservationConvention}: observation {@value #NAME}, contextual (span)
 * name {@code "<transition> <role>"}, such as {@code "revoked billing-close"}.
 * <ul>
 * <li>Low-cardinality keys: {@code role}, {@code transition} ({@code granted} or {@code revoked})
 * and {@code reason} ({@code none} for a grant, else the lower-case {@link RevocationReason}).</li>
 * <li>High-cardinality key: {@code fencing.token}.</li>
 * </ul>
 * Its name differs from the meters of {@link io.zklock.metrics.LeadershipMetrics}, so a meter
 * handler that turns observations into timers creates no second meter of those names with other
 * tags.
 *
 * <p>
 * Thread-safe.
 */
public class DefaultLeadershipObservationConvention implements LeadershipObservationConvention {

	/** Name of the observation. */
	public static final String NAME = "zklock.leadership.transition";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LeadershipTransitionContext context) {
		return context.getTransition() + " " + context.getRole();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LeadershipTransitionContext context) {
		RevocationReason reason = context.getReason();
		return KeyValues.of("role", context.getRole(), "transition", context.getTransition(), "reason",
				(reason != null) ? reason.name().toLowerCase(Locale.ROOT) : "none");
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LeadershipTransitionContext context) {
		return KeyValues.of("fencing.token", Long.toString(context.getFencingToken()));
	}

}
