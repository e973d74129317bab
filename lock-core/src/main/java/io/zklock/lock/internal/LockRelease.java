package io.zklock.lock.internal;

import io.zklock.lock.LockState;
import io.zklock.lock.ReleaseResult;
import org.jspecify.annotations.Nullable;

/**
 * What releasing a {@link HoldHandle} does to its {@link LockHold}: counts one entry down and,
 * with the last, tells the listeners the release starts, unregisters the hold, deletes its lock
 * node (an exclusive one so that the next waiter needs no listing, {@link HandoffRelease}; or
 * hands it to a local waiter, {@link LocalChains}) and tells the listeners what the delete found; or
 * detaches a thread entry from its thread. Thread-safe.
 */
final class LockRelease {

	private final HoldRegistry holds;

	private final LockNodeQueue queue;

	private final LocalChains chains;

	private final LockListeners listeners;

	LockRelease(HoldRegistry holds, LockNodeQueue queue, LocalChains chains, LockListeners listeners) {
		this.holds = holds;
		this.queue = queue;
		this.chains = chains;
		this.listeners = listeners;
	}

	/**
	 * Releases one entry of a hold; the node goes with the last.
	 * @param detached whether the entry's handle was detached from the holder thread
	 */
	ReleaseResult release(LockHold hold, boolean detached) {
		LockState before = hold.state();
		LockHold.Exit exit = hold.exit(detached);
		if (exit == LockHold.Exit.LEFT_THREAD) {
			this.holds.leaveThread(hold);
		}
		if (exit != LockHold.Exit.LAST) {
			return ReleaseResult.STILL_HELD;
		}
		return deleteNode(hold, before);
	}

	/**
	 * Counts one entry of {@code hold} whose handle became unreachable unreleased, and tells the
	 * listeners; called on the leak detector's thread.
	 */
	void leaked(LockHold hold) {
		if (hold.leak()) {
			this.listeners.leaked(hold.target(), hold.fencingToken(), hold.heldFor());
		}
	}

	/**
	 * Releases a hold that no code can release any more (every open entry's handle became
	 * unreachable unreleased), as its last release would have.
	 * @return what the release found, or {@code null} if the hold was not abandoned (a handle of
	 * it is open, or it was released meanwhile)
	 */
	@Nullable ReleaseResult releaseAbandoned(LockHold hold) {
		LockState before = hold.state();
		if (!hold.releaseAbandoned()) {
			return null;
		}
		return deleteNode(hold, before);
	}

	/** The last entry of {@code hold} went: unregisters it and deletes (or hands on) its node. */
	private ReleaseResult deleteNode(LockHold hold, LockState before) {
		boolean lost = before == LockState.LOST;
		this.listeners.releasing(hold.target(), hold.fencingToken());
		this.holds.remove(hold);
		// a local waiter next in line is handed the node instead (LocalChains), once this release is reported
		LocalChains.AfterRelease after = this.chains.release(hold, before);
		ReleaseResult result = after.handedOn() ? ReleaseResult.RELEASED
				: this.queue.release(hold.nodePath(), hold.mode());
		if (lost) {
			// lost before this release, whatever the delete found (the node may have outlived the
			// loss, or the delete still waits for a connection): the work under it may have overlapped
			result = ReleaseResult.LOST;
		}
		this.listeners.released(hold.target(), hold.fencingToken(), hold.heldFor(), result);
		// a node handed on waits for the released holder's guarded writes under way (GuardedWrites)
		hold.whenUnpinned(after.then());
		return result;
	}

	/**
	 * Detaches one thread entry of a hold from its thread; the thread no longer owns the hold
	 * once none of its entries is left.
	 */
	void detach(LockHold hold) {
		if (hold.detach()) {
			this.holds.leaveThread(hold);
		}
	}

}
