package io.zklock.lock.event;

import java.time.Duration;

import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockRequest;
import io.zklock.lock.ReleaseResult;

/**
 * Observes the locks of a {@link LockEngine}, for metrics, tracing or logs. Every method
 * has an empty default, so a listener implements only what it needs.
 *
 * <p>
 * {@link #onAcquiring} and its outcome ({@link #onAcquired}, {@link #onTimeout} or
 * {@link #onFailed}) are called on the acquiring thread, in that order; {@link #onReleasing} and
 * then {@link #onReleased} on the releasing thread; {@link #onInDoubt} and {@link #onLost} on
 * the thread that follows the client's connection state, {@link #onConfirmed} on the thread that
 * confirmed ownership, {@link #onLeaked} on the leak detector's thread. A held lock may go in doubt
 * and back (each {@link #onInDoubt} followed by {@link #onConfirmed}, {@link #onLost} or its
 * release) before it is lost or released. Reentrant acquires and releases of a thread-owned hold are not reported.
 * Keep listeners fast and never block; an exception thrown by a listener is logged and otherwise
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
	 * The last hold of a lock node starts to be released: the lock node still exists, so no
	 * other holder can have been granted the lock yet. Together with {@link #onAcquired} it
	 * bounds the time the holder held the lock as the holder saw it, which a history checker
	 * needs to tell two holds at once from a handoff ({@link #onReleased} comes after the
	 * delete, when the next holder may already hold the lock).
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 */
	default void onReleasing(LockTarget lock, long fencingToken) {
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
	 * A held lock was put in doubt: the connection was suspended (an error state of the
	 * client's {@code ConnectionStateErrorPolicy}; under the session policy this never
	 * happens), so another process may hold the lock by now, and
	 * {@link LockHandle#isHeld()} is {@code false}. Followed by {@link #onConfirmed} if, after a
	 * reconnect with the same session, a quorum operation finds the lock node still owned by
	 * the session, or by {@link #onLost}, or by {@link #onReleased} if it is released first
	 * (Curator Tech Note 14). Called on the thread that follows the connection state.
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 * @param heldFor how long the lock had been held when it was put in doubt
	 */
	default void onInDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
	}

	/**
	 * A lock in doubt is held again: after a reconnect with the same session, a quorum
	 * operation found its lock node still owned by the session. No other process held it in
	 * between. Called on zklock's confirmation thread.
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 * @param inDoubtFor how long the lock was in doubt
	 */
	default void onConfirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
	}

	/**
	 * A held lock, or one in doubt, was lost before its release: its session expired, or its
	 * ownership could not be confirmed after a reconnect. Not called for a lock that was in
	 * doubt and then confirmed ({@link #onInDoubt}, {@link #onConfirmed}).
	 * @param lock the lock
	 * @param fencingToken the lost lock node's fencing token
	 * @param heldFor how long the lock had been held
	 */
	default void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
	}

	/**
	 * A handle of a held lock became unreachable without being released (a leak, found by
	 * {@link LockEngine.Builder#leakDetection(boolean, Duration)}; the engine also logs it at ERROR): no code can release that handle any
	 * more. The lock stays held until the hold's other handles are released, the engine closes
	 * ({@link LockEngine#close()} releases a hold whose every handle leaked) or the session ends.
	 * Called once per leaked handle, on zklock's {@code zklock-leak-detector} thread, some time
	 * after the handle became unreachable (when the garbage collector finds it).
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 * @param heldFor how long the lock has been held
	 */
	default void onLeaked(LockTarget lock, long fencingToken, Duration heldFor) {
	}

	/**
	 * A hold passed a bound on its length, once per handle (or call) and bound. Two bounds exist:
	 * <ul>
	 * <li>the hold's own {@link LockRequest#holdAtMost(Duration) holdAtMost} (also
	 * {@code @DistributedLock(holdAtMost)}), counted from the grant: the lock stays held
	 * ({@code released} is {@code false}), since its holder may still be using what it guards;</li>
	 * <li>for a {@code @DistributedLock} call whose work was cancelled where zklock cannot see
	 * that work end (a Reactor {@code Flux} cut off by its subscriber; a stage or publisher that
	 * zklock cancelled itself), {@code zklock.hold-after-cancel}, counted from the cancel: the
	 * lock is released now ({@code released} is {@code true}).</li>
	 * </ul>
	 * Called, for a handle's own bound, on the engine's {@code zklock-hold-bound} thread; for a
	 * {@code @DistributedLock} call, on zklock's release thread ({@code zklock-release-N}).
	 * @param lock the lock
	 * @param fencingToken the lock node's fencing token
	 * @param heldFor how long the lock has been held, from its grant
	 * @param bound the bound that passed
	 * @param released whether the lock is released now because of it
	 */
	default void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
			boolean released) {
	}

}
