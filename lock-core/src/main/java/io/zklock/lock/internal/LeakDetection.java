package io.zklock.lock.internal;

import java.time.Duration;
import java.util.Optional;

import io.zklock.internal.Durations;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockRequest;
import io.zklock.lock.event.LockListener;

import org.jspecify.annotations.Nullable;

/**
 * How a {@link LockEngine} looks for leaked locks, in the manner of HikariCP's
 * {@code leakDetectionThreshold} and Netty's {@code ResourceLeakDetector}: a {@link LockHandle}
 * that becomes unreachable while still holding its lock is always reported, when the garbage
 * collector finds it (an ERROR naming the lock and, where recorded, the place it was acquired, and
 * {@link LockListener#onLeaked}): nothing can release that handle any more, so the lock stays held
 * until its other handles are released, the engine closes (which releases a lock whose every
 * handle leaked, {@link LockEngine#getLeakedLocks()}) or its session ends. A loss listener
 * ({@link LockHandle#onLost}) or a bound ({@link LockRequest#holdAtMost}, a threshold here) does
 * not keep a handle reachable, so it does not delay the report. With a threshold, a hold that
 * lasts longer is reported once (a WARN naming its holder), whether or not its handle is still
 * reachable.
 *
 * @param recordSites whether each grant records the place it was acquired (the first caller
 * frame outside zklock, Spring and the JDK, with {@link StackWalker}: a few microseconds per
 * grant), so that leak reports and the time-out message of a waiter behind a hold of this process
 * can name it
 * @param threshold how long a hold may last before it is reported, or {@code null} for no such
 * report; a request's own {@link LockRequest#holdAtMost(Duration)} is reported instead
 */
public record LeakDetection(boolean recordSites, @Nullable Duration threshold) {

	/**
	 * @throws IllegalArgumentException if {@code threshold} is zero or negative
	 */
	public LeakDetection {
		if (threshold != null && (threshold.isZero() || threshold.isNegative())) {
			throw new IllegalArgumentException("Leak-detection threshold " + Durations.format(threshold)
					+ " is invalid: a hold is reported once it lasts longer, so it must be positive (or null for none)");
		}
	}

	/**
	 * The defaults: sites recorded, no threshold.
	 * @return the defaults
	 */
	public static LeakDetection defaults() {
		return new LeakDetection(true, null);
	}

	/**
	 * Sites recorded, and holds reported once they last longer than {@code threshold}.
	 * @param threshold how long a hold may last before it is reported
	 * @return the setting
	 * @throws IllegalArgumentException if {@code threshold} is zero or negative
	 */
	public static LeakDetection after(Duration threshold) {
		return new LeakDetection(true, threshold);
	}

	/**
	 * The threshold, if any.
	 * @return how long a hold may last before it is reported
	 */
	public Optional<Duration> maxHold() {
		return Optional.ofNullable(this.threshold);
	}

}
