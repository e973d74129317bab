package io.zklock.lock.internal;

import java.time.Duration;

/**
 * A point in time measured on {@link System#nanoTime()}, which bounds a whole acquire:
 * ZooKeeper round trips and waits for a predecessor alike. Immune to wall-clock jumps.
 */
final class Deadline {

	private static final Deadline NEVER = new Deadline(Long.MAX_VALUE, true);

	private final long deadlineNanos;

	private final boolean infinite;

	private Deadline(long deadlineNanos, boolean infinite) {
		this.deadlineNanos = deadlineNanos;
		this.infinite = infinite;
	}

	static Deadline never() {
		return NEVER;
	}

	static Deadline after(Duration wait) {
		long nanos;
		try {
			nanos = wait.toNanos();
		}
		catch (ArithmeticException ex) {
			return NEVER;
		}
		return new Deadline(System.nanoTime() + nanos, false);
	}

	boolean isInfinite() {
		return this.infinite;
	}

	/** Nanoseconds left, or {@link Long#MAX_VALUE} for a deadline that never passes; {@code <= 0} once passed. */
	long remainingNanos() {
		return this.infinite ? Long.MAX_VALUE : this.deadlineNanos - System.nanoTime();
	}

	boolean hasPassed() {
		return remainingNanos() <= 0;
	}

}
