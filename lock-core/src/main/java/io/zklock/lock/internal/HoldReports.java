package io.zklock.lock.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.zklock.lock.LockState;

/**
 * Tells the engine what the connection state did to its holds, so that listeners can tell a
 * doubt from a loss: a hold put in doubt (HELD to IN_DOUBT), a hold in doubt confirmed again
 * (IN_DOUBT to HELD), a hold lost. A confirmation is told only for a hold whose doubt was told:
 * a hold that starts in doubt (its grant was decided across a disconnect, before its acquire
 * was reported) tells neither. Thread-safe.
 */
final class HoldReports {

	/** Receives the reports, on the thread that noticed. */
	interface Listener {

		/** The hold became LOST. */
		void lost(GuardedHold hold);

		/** The hold went from HELD to IN_DOUBT. */
		default void inDoubt(GuardedHold hold) {
		}

		/** The hold went from IN_DOUBT back to HELD after {@code inDoubtFor} in doubt. */
		default void confirmed(GuardedHold hold, Duration inDoubtFor) {
		}

	}

	private final Listener listener;

	/** The holds whose doubt was told and not yet ended. */
	private final Set<GuardedHold> toldInDoubt = ConcurrentHashMap.newKeySet();

	HoldReports(Listener listener) {
		this.listener = listener;
	}

	/** A hold left state {@code left} for {@code next} (IN_DOUBT or LOST). */
	void degraded(GuardedHold hold, LockState left, LockState next) {
		if (next == LockState.LOST) {
			this.toldInDoubt.remove(hold);
			this.listener.lost(hold);
		}
		else if (left == LockState.HELD) {
			this.toldInDoubt.add(hold);
			this.listener.inDoubt(hold);
		}
	}

	/** A hold in doubt is HELD again. */
	void confirmed(GuardedHold hold, Duration inDoubtFor) {
		if (this.toldInDoubt.remove(hold)) {
			this.listener.confirmed(hold, inDoubtFor);
		}
	}

	/** A hold is no longer guarded (released). */
	void forget(GuardedHold hold) {
		this.toldInDoubt.remove(hold);
	}

}
