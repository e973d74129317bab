package io.zklock.lock;

/**
 * Where a {@link LockHandle} stands.
 *
 * <p>
 * Lock loss follows the client's {@code ConnectionStateErrorPolicy} (Curator Tech Note 14):
 * under the standard policy a SUSPENDED connection puts every held lock
 * {@link #IN_DOUBT}; under the session policy only a lost session matters. A lock in doubt
 * is held again only after RECONNECTED with the same session, once a quorum operation
 * confirmed that its lock node still exists and is owned by the session; otherwise it is
 * {@link #LOST}. A lost lock is never held again.
 */
public enum LockState {

	/** Held: the lock node exists and belongs to this client's session, as far as it knows. */
	HELD,

	/** The connection is suspended: another process may hold the lock by now. */
	IN_DOUBT,

	/** The session expired or ownership could not be confirmed: the lock is gone. */
	LOST,

	/** Released through this handle. */
	RELEASED

}
