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

	/**
	 * This deadline, or {@code minimum} from now if that is later: a short wait (say a single
	 * try) still gives its ZooKeeper round trips {@code minimum} to complete.
	 */
	Deadline atLeast(Duration minimum) {
		if (this.infinite) {
			return this;
		}
		long floor = System.nanoTime() + minimum.toNanos();
		return (floor - this.deadlineNanos > 0) ? new Deadline(floor, false) : this;
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
