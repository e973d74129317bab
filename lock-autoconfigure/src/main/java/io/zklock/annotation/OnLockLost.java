package io.zklock.annotation;

/**
 * What a {@link DistributedLock} method's interceptor does when the lock is lost, or put in
 * doubt by a suspended connection, while the method runs ({@code zklock.on-lock-lost}).
 */
public enum OnLockLost {

	/**
	 * Let the method finish, then replace its result with a
	 * {@link io.zklock.lock.LockLostException} unless the lock was confirmed held again
	 * (reconnected within the session). The default: no silent overlap, and no interrupt
	 * reaching code that was not written for one (an interrupted NIO channel closes).
	 */
	FAIL,

	/**
	 * Interrupt the thread running the method at once, so interruptible work stops early;
	 * the method decides what the interrupt means. Its result then stands as returned.
	 */
	INTERRUPT,

	/**
	 * Do nothing: the method's result stands. Use only where a fencing token protects every
	 * write the method makes.
	 */
	IGNORE

}
