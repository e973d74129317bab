package io.zklock.test.history;

import io.zklock.lock.LockMode;

/**
 * When one grant of a lock was held, as its holder saw it: from the moment its acquire
 * returned to the moment it began to release, its library declared the lock lost, or it died.
 *
 * @param holder the holder, such as {@code "app-1"}
 * @param thread the thread the lock was granted to
 * @param lockPath the lock path
 * @param mode the lock mode
 * @param fencingToken the grant's fencing token
 * @param start when the acquire returned, on {@link System#nanoTime()}
 * @param end when the hold ended (released, lost or died); {@link Long#MAX_VALUE} if the
 * history does not say
 * @param doubtEnd like {@code end}, but also ended by the lock being put in doubt
 */
public record HeldInterval(String holder, String thread, String lockPath, LockMode mode, long fencingToken,
		long start, long end, long doubtEnd) {

	/**
	 * Whether this hold and {@code other} share a moment, whatever their modes.
	 * @param other another hold
	 * @param untilDoubt whether a hold ends when its lock is put in doubt
	 * @return {@code true} if they overlap in time
	 */
	public boolean overlaps(HeldInterval other, boolean untilDoubt) {
		return this.start < other.endOf(untilDoubt) && other.start < endOf(untilDoubt);
	}

	/**
	 * Whether this hold and {@code other} may never be held at once: the same lock path, and
	 * not both {@link LockMode#READ}.
	 * @param other another hold
	 * @return {@code true} if the two modes exclude each other on the same lock path
	 */
	public boolean conflictsWith(HeldInterval other) {
		return this.lockPath.equals(other.lockPath) && (this.mode != LockMode.READ || other.mode != LockMode.READ);
	}

	/**
	 * The end, with or without the doubt.
	 * @param untilDoubt whether a hold ends when its lock is put in doubt
	 * @return the end, on {@link System#nanoTime()}
	 */
	public long endOf(boolean untilDoubt) {
		return untilDoubt ? this.doubtEnd : this.end;
	}

	/**
	 * This hold in words, its times in milliseconds after {@code origin}.
	 * @param origin the moment that counts as 0 ms, on {@link System#nanoTime()}
	 * @return such as {@code EXCLUSIVE token 4295 by app-1 on thread 'worker-3', held 12.503 ms → 15.871 ms}
	 */
	public String describe(long origin) {
		return this.mode + " token " + this.fencingToken + " by " + this.holder + " on thread '" + this.thread
				+ "', held " + millis(this.start - origin) + " → "
				+ ((this.end == Long.MAX_VALUE) ? "(never released)" : millis(this.end - origin));
	}

	static String millis(long nanos) {
		return String.format(java.util.Locale.ROOT, "%.3f ms", nanos / 1e6);
	}

}
