package io.zklock.internal;

import java.time.Duration;
import java.util.Locale;

/**
 * Writes durations for zklock's messages the way users write them in configuration:
 * {@code "10m"}, {@code "30s"}, {@code "250ms"}, {@code "-1s"}, never {@code "PT10M"}. The one
 * duration writer of the project (the lock API's argument checks, the engine's hold-bound
 * WARN, the annotation's messages). Thread-safe.
 */
public final class Durations {

	private Durations() {
	}

	/**
	 * Writes a duration in its largest whole unit: minutes ({@code "10m"}), seconds
	 * ({@code "30s"}), milliseconds below a second ({@code "250ms"}), or micro- and nanoseconds
	 * below a millisecond ({@code "5us"}, {@code "1500ns"}); a measured duration of a second or
	 * more that is not whole seconds to the millisecond is written with one decimal
	 * ({@code "2.5s"}). Zero is {@code "0s"}, a negative duration is its length with a minus
	 * sign, and one too long for the units above is written as {@link Duration#toString()}.
	 * @param duration the duration, not {@code null}
	 * @return the text
	 */
	public static String format(Duration duration) {
		try {
			return compact(duration);
		}
		catch (ArithmeticException ex) {
			return duration.toString();
		}
	}

	private static String compact(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.isNegative()) {
			return "-" + compact(duration.negated());
		}
		if (duration.getNano() == 0) {
			long seconds = duration.getSeconds();
			return (seconds % 60 == 0) ? (seconds / 60) + "m" : seconds + "s";
		}
		if (duration.getSeconds() == 0 && duration.getNano() < 1_000_000) {
			int nanos = duration.getNano();
			return (nanos % 1_000 == 0) ? (nanos / 1_000) + "us" : nanos + "ns";
		}
		long millis = duration.toMillis();
		if (millis < 1000) {
			return millis + "ms";
		}
		if (millis % 1000 == 0) {
			return compact(Duration.ofMillis(millis));
		}
		return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
	}

}
