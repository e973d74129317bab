package io.zklock.lock;

import java.time.Duration;

/**
 * Something that happened to one lock, reported to {@link LockListener}s.
 *
 * @param type what happened
 * @param lockPath the lock path, such as {@code "orders/42"}
 * @param lockName the lock's name for metrics: a label of bounded cardinality, such as
 * {@code "orders"} (the annotation's path, the caller's declared name, or else the first
 * segment of the lock path)
 * @param mode the requested lock mode
 * @param fencingToken the lock node's fencing token, or {@code 0} if no lock was granted
 * @param duration {@link Duration#ZERO} for {@link Type#ACQUIRING}; for {@link Type#ACQUIRED}, {@link Type#TIMED_OUT} and {@link Type#FAILED}:
 * how long the acquire took; for {@link Type#RELEASED} and {@link Type#LOST}: how long the
 * lock was held
 * @param releaseResult for {@link Type#RELEASED}: what the release found, else {@code null}
 * @param error for {@link Type#FAILED}: the failure, else {@code null}
 */
public record LockEvent(Type type, String lockPath, String lockName, LockMode mode, long fencingToken,
		Duration duration, ReleaseResult releaseResult, Throwable error) {

	/**
	 * Kinds of lock events.
	 */
	public enum Type {

		/**
		 * An acquire starts queueing (not reported for reentrant acquires); reported on the
		 * acquiring thread right before the matching ACQUIRED, TIMED_OUT or FAILED.
		 */
		ACQUIRING,

		/** A lock node was granted (not reported for reentrant acquires). */
		ACQUIRED,

		/** The wait ran out before the lock was granted. */
		TIMED_OUT,

		/** The acquire failed: interrupted, or a ZooKeeper error. */
		FAILED,

		/** The last hold of a lock node was released. */
		RELEASED,

		/**
		 * An annotated call was skipped because its lock was busy
		 * ({@code @DistributedLock(onFailure = SKIP)}).
		 */
		SKIPPED,

		/** A held lock was lost (its session expired, or ownership could not be confirmed) before its release. */
		LOST

	}

}
