package io.zklock.lock;

import java.time.Duration;

/**
 * Observes the locks of a {@link LockEngine}, for metrics, tracing or logs. Every method
 * has an empty default, so a listener implements only what it needs.
 *
 * <p>
 * {@link #onAcquiring} and its outcome ({@link #onAcquired}, {@link #onTimeout} or
 * {@link #onFailed}) are called on the acquiring thread, in that order; {@link #onReleased} on
 * the releasing thread; {@link #onLost} on the thread that follows the client's connection
 * state. Reentrant acquires and releases of a thread-owned hold are not reported. Keep
 * listeners fast and never block; an exception thrown by a listener is logged and otherwise
 * ignored.
 */
public interface LockListener {

	/**
	 * An acquire starts queueing.
	 * @param lock the lock asked for
	 */
	default void onAcquiring(LockTarget lock) {
	}

	/**
	 * A lock node was granted.
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 * @param waited how long the acquire took
	 */
	default void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
	}

	/**
	 * The wait ran out before the lock was granted; nothing was left behind.
	 * @param lock the lock asked for
	 * @param waited how long the acquire took
	 */
	default void onTimeout(LockTarget lock, Duration waited) {
	}

	/**
	 * The acquire failed: interrupted, or a ZooKeeper error; nothing was left behind.
	 * @param lock the lock asked for
	 * @param waited how long the acquire took
	 * @param error the failure
	 */
	default void onFailed(LockTarget lock, Duration waited, Throwable error) {
	}

	/**
	 * The last hold of a lock node was released.
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 * @param heldFor how long the lock node was held
	 * @param result what the release found
	 */
	default void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
	}

	/**
	 * A held lock was lost before its release: its session expired, or its ownership could
	 * not be confirmed after a reconnect.
	 * @param lock the lock
	 * @param fencingToken the lost lock node's fencing token
	 * @param heldFor how long the lock had been held
	 */
	default void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
	}

}
