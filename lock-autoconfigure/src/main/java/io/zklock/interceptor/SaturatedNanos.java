package io.zklock.interceptor;

import java.time.Duration;

/**
 * Durations of the annotations and of {@code zklock.*} in nanoseconds of
 * {@link System#nanoTime()}, saturated as the lock API's deadlines are: a duration too long to
 * count (such as {@code waitTime = "300000d"}: more than the 292 years a {@code long} of
 * nanoseconds holds) means "never", where {@link Duration#toNanos()} would throw
 * {@link ArithmeticException} at every call. A wait that long never runs out; a hold that long
 * lasts until the application stops.
 */
final class SaturatedNanos {

	/**
	 * The "never" of a duration: about 146 years, longer than any process runs, yet short enough
	 * to add to a {@link System#nanoTime()} reading without overflow.
	 */
	static final long NEVER = Long.MAX_VALUE / 2;

	private SaturatedNanos() {
	}

	/**
	 * A duration in nanoseconds, at most {@link #NEVER}.
	 * @param duration a duration of zero or more
	 * @return its nanoseconds, or {@link #NEVER} if it is at least that long
	 */
	static long of(Duration duration) {
		try {
			return Math.min(duration.toNanos(), NEVER);
		}
		catch (ArithmeticException ex) {
			return NEVER;
		}
	}

	/**
	 * Whether a duration is so long that it means "never".
	 * @param duration a duration of zero or more
	 * @return {@code true} if it is at least {@link #NEVER} nanoseconds long
	 */
	static boolean isNever(Duration duration) {
		return of(duration) == NEVER;
	}

}
