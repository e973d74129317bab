package io.zklock.lock.internal;

import java.time.Duration;

import io.zklock.internal.Durations;
import io.zklock.lock.HoldExceededReaction;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;
import io.zklock.internal.LockPaths;
import io.zklock.lock.LockState;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a hold that outlived its {@link io.zklock.lock.LockRequest#holdAtMost(Duration)
 * holdAtMost} loud, and leaves the lock held: a WARN on this class's logger that names the
 * lock and the holder thread, with the thread's stack where the hold is thread-owned (the
 * thread holds it, so its stack shows what holds it up), and
 * {@link io.zklock.lock.event.LockListener#onHoldExceeded} with {@code released} {@code false}.
 * Thread-safe.
 */
final class HoldBreach {

	private static final Logger logger = LoggerFactory.getLogger(HoldBreach.class);

	private final LockListeners listeners;

	HoldBreach(LockListeners listeners) {
		this.listeners = listeners;
	}

	/**
	 * The bound of a handle passed: reports it unless the handle was released meanwhile; with a
	 * reaction of the holder's, the reaction speaks instead of the WARN and says whether the
	 * listeners are told. A handle that was collected unreleased (a leak, reported when it was
	 * collected) has no reaction to hand it to: the WARN says so.
	 * @param handle the handle, or {@code null} if it was collected
	 */
	void report(@Nullable LockHandle handle, LockHold hold, Duration bound, @Nullable HoldExceededReaction reaction) {
		LockState state = (handle != null) ? handle.state() : hold.state();
		if (state == LockState.RELEASED) {
			return;
		}
		Duration heldFor = hold.heldFor();
		if (reaction != null && handle != null) {
			if (react(reaction, handle, hold, heldFor, bound)) {
				this.listeners.holdExceeded(hold.target(), hold.fencingToken(), heldFor, bound, false);
			}
			return;
		}
		String message = "The " + hold.mode() + " lock on '" + hold.lockPath() + "' (fencing token "
				+ hold.fencingToken() + ") has been held for " + Durations.format(heldFor) + ", past its holdAtMost of "
				+ Durations.format(bound) + ((state != LockState.HELD) ? " (it is " + state + " now)" : "")
				+ ". zklock keeps it until its handle is released, since a lock is never released while its holder "
				+ "may still use it: find what holds the holder up, and release the handle in a finally block.";
		if (handle == null) {
			logger.warn("{} Its handle became unreachable without being released (reported then as a leak), so no "
					+ "code can release it: the lock stays held until the hold's other handles are released, the "
					+ "lock engine closes or the session ends.", message);
			this.listeners.holdExceeded(hold.target(), hold.fencingToken(), heldFor, bound, false);
			return;
		}
		Thread holder = hold.holderThread();
		if (handle.owner() == HoldOwner.THREAD && holder.isAlive()) {
			HolderStack trace = new HolderStack(
					"Holder thread '" + holder.getName() + "' (" + holder.getState() + ") holds it, at");
			trace.setStackTrace(holder.getStackTrace());
			logger.warn(message, trace);
		}
		else if (handle.owner() == HoldOwner.THREAD) {
			logger.warn("{} Its holder thread '{}' has ended without releasing it: the lock stays held until the "
					+ "handle is released or the session ends.", message, holder.getName());
		}
		else {
			logger.warn("{} The hold is call-owned: thread '{}' acquired it, and whichever thread has the handle "
					+ "releases it, so no holder thread's stack is known.", message, holder.getName());
		}
		this.listeners.holdExceeded(hold.target(), hold.fencingToken(), heldFor, bound, false);
	}

	/**
	 * A hold without a bound lasted past the engine's leak-detection threshold: a WARN that names
	 * its holder (with the holder thread's stack where the hold is thread-owned), unless the handle
	 * was released meanwhile. The lock stays held; the listeners are not told (no bound was set).
	 * @param handle the handle, or {@code null} if it was collected (a leak, reported then)
	 */
	void reportLongHold(@Nullable LockHandle handle, LockHold hold, Duration threshold) {
		LockState state = (handle != null) ? handle.state() : hold.state();
		if (state == LockState.RELEASED) {
			return;
		}
		String message = "The " + hold.mode() + " lock on '" + LockPaths.escape(hold.lockPath()) + "' (fencing token "
				+ hold.fencingToken() + ") has been held for " + Durations.format(hold.heldFor())
				+ ", past the leak-detection threshold of " + Durations.format(threshold) + ": " + hold.describeHolder()
				+ ". A handle that is never released keeps the lock until its session ends: release every handle in a "
				+ "finally block or with try-with-resources (or give the acquire a holdAtMost that says how long it may "
				+ "hold).";
		Thread holder = hold.holderThread();
		if (hold.currentOwner() == HoldOwner.THREAD && holder.isAlive()) {
			HolderStack trace = new HolderStack(
					"Holder thread '" + holder.getName() + "' (" + holder.getState() + ") holds it, at");
			trace.setStackTrace(holder.getStackTrace());
			logger.warn(message, trace);
		}
		else {
			logger.warn(message);
		}
	}

	/** Runs the holder's reaction; one that fails is logged, and the listeners are told. */
	private static boolean react(HoldExceededReaction reaction, LockHandle handle, LockHold hold, Duration heldFor,
			Duration bound) {
		try {
			return reaction.holdExceeded(handle, heldFor, bound);
		}
		catch (RuntimeException ex) {
			logger.warn("The reaction to the " + hold.mode() + " lock on '" + hold.lockPath() + "' held past its "
					+ "holdAtMost of " + Durations.format(bound) + " failed; the lock stays held", ex);
			return true;
		}
	}

	/** The holder thread's stack, logged under the WARN as an exception's would be. */
	static final class HolderStack extends RuntimeException {

		private static final long serialVersionUID = 1L;

		HolderStack(String message) {
			super(message, null, false, true);
		}

	}

}
