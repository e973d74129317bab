package io.zklock.lock;

/**
 * What {@link LockHandle#release()} found and did.
 */
public enum ReleaseResult {

	/** The lock node was deleted: other waiters may now acquire. */
	RELEASED,

	/** This thread still holds the lock through an outer, reentrant acquire; nothing was deleted. */
	STILL_HELD,

	/**
	 * The lock had been lost before this release: its session had expired, its ownership could
	 * not be confirmed after a reconnect, or its node was already gone. Work done under it may
	 * have overlapped another holder. Any node left is deleted in the background.
	 */
	LOST,

	/**
	 * The delete failed on a connection problem. The lock is released locally and Curator
	 * keeps retrying the delete in the background (a guaranteed delete); until it succeeds,
	 * or the session ends, other waiters stay blocked.
	 */
	CLEANUP_PENDING,

	/** This handle had been released before; the call did nothing. */
	ALREADY_RELEASED

}
