package io.zklock.lock;

import java.time.Duration;

/**
 * Writes durations for messages the way users write them in configuration: {@code "5s"},
 * {@code "250ms"}, {@code "-1s"}, never {@code "PT-1S"}.
 */
final class Durations {

	private Durations() {
	}

	static String format(Duration duration) {
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
		if (duration.getNano() == 0) {
			return duration.getSeconds() + "s";
		}
		if (duration.getNano() % 1_000_000 == 0) {
			return duration.toMillis() + "ms";
		}
		if (duration.getNano() % 1_000 == 0) {
			return (duration.toNanos() / 1_000) + "us";
		}
		return duration.toNanos() + "ns";
	}

}
