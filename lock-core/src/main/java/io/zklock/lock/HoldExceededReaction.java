package io.zklock.lock;

import java.time.Duration;

import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

/**
 * What the holder of a bounded hold does when the hold outlives its
 * {@link LockRequest#holdAtMost(Duration) holdAtMost}, set with
 * {@link LockRequest#onHoldExceeded(HoldExceededReaction)}: the engine calls it in place of its
 * WARN, on its {@code zklock-hold-bound} thread, once per handle whose bound passes before the
 * handle is released. The lock stays held whatever the reaction does: zklock never releases a
 * lock because of its bound. {@code @DistributedLock}'s {@code onHoldExceeded} policies (warn,
 * interrupt the holder, cancel the call) are such reactions.
 */
@FunctionalInterface
public interface HoldExceededReaction {

	/**
	 * Reacts to a hold past its bound. Runs on the engine's {@code zklock-hold-bound} thread,
	 * so it must not block; an exception it throws is logged and the listeners are told.
	 * @param handle the handle whose bound passed, not released
	 * @param heldFor how long it has been held, since its grant
	 * @param bound its bound
	 * @return whether the {@link LockListener}s hear of the breach
	 * ({@link LockListener#onHoldExceeded(LockTarget, long, Duration, Duration, boolean)});
	 * {@code false} where the hold no longer guards running work (the work has ended and the
	 * lock is only kept a while before its release)
	 */
	boolean holdExceeded(LockHandle handle, Duration heldFor, Duration bound);

}
