package io.zklock.lock.internal;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import io.zklock.lock.LockState;
import org.jspecify.annotations.Nullable;

/**
 * Something this client holds through an ephemeral node of its session, whose fate follows the
 * connection state: a lock node ({@link LockHold}) or a semaphore lease. Thread-safe.
 */
interface GuardedHold {

	/** The session that created the node. */
	long sessionId();

	/** The node's full path inside the namespace. */
	String nodePath();

	/** HELD, IN_DOUBT, LOST or RELEASED. */
	LockState state();

	/**
	 * Moves to {@code next} (IN_DOUBT or LOST) unless already there, lost or released, and runs
	 * the loss callbacks if the hold just stopped being HELD.
	 * @return the state the hold left (HELD or IN_DOUBT), or {@code null} if it did not move
	 */
	@Nullable LockState degrade(LockState next);

	/**
	 * Moves from IN_DOUBT back to HELD after its ownership was confirmed, unless the connection
	 * changed state since the confirmation began.
	 * @param stillValid tells, while the hold's state is locked, whether no connection event
	 * arrived since the confirmation began
	 * @return how long the hold was in doubt if it is HELD again, else {@code null}
	 */
	@Nullable Duration confirm(BooleanSupplier stillValid);

}
