package io.zklock.lock.internal;

import java.time.Duration;
import java.util.Locale;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a hold that outlived its {@link io.zklock.lock.LockRequest#holdAtMost(Duration)
 * holdAtMost} loud, and leaves the lock held: a WARN on this class's logger that names the
 * lock and the holder thread, with the thread's stack where the hold is thread-owned (the
 * thread holds it, so its stack shows what holds it up), and
 * {@link io.zklock.lock.LockListener#onHoldExceeded} with {@code released} {@code false}.
 * Thread-safe.
 */
final class HoldBreach {

	private static final Logger logger = LoggerFactory.getLogger(HoldBreach.class);

	private final LockListeners listeners;

	HoldBreach(LockListeners listeners) {
		this.listeners = listeners;
	}

	/** The bound of a handle passed: reports it unless the handle was released meanwhile. */
	void report(LockHandle handle, LockHold hold, Duration bound) {
		LockState state = handle.state();
		if (state == LockState.RELEASED) {
			return;
		}
		Duration heldFor = hold.heldFor();
		String message = "The " + hold.mode() + " lock on '" + hold.lockPath() + "' (fencing token "
				+ hold.fencingToken() + ") has been held for " + format(heldFor) + ", past its holdAtMost of "
				+ format(bound) + ((state != LockState.HELD) ? " (it is " + state + " now)" : "")
				+ ". zklock keeps it until its handle is released, since a lock is never released while its holder "
				+ "may still use it: find what holds the holder up, and release the handle in a finally block.";
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

	/** {@code "250ms"}, {@code "30s"}, {@code "2.5s"}, {@code "10m"}: as configuration writes durations. */
	static String format(Duration duration) {
		long millis = duration.toMillis();
		if (millis < 1000) {
			return millis + "ms";
		}
		if (millis % 60_000 == 0) {
			return (millis / 60_000) + "m";
		}
		if (millis % 1000 == 0) {
			return (millis / 1000) + "s";
		}
		return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
	}

	/** The holder thread's stack, logged under the WARN as an exception's would be. */
	static final class HolderStack extends RuntimeException {

		private static final long serialVersionUID = 1L;

		HolderStack(String message) {
			super(message, null, false, true);
		}

	}

}
