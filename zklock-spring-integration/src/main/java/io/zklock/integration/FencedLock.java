package io.zklock.integration;

import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} whose holder can read the fencing token of its hold, to pass to the resource
 * it writes; the resource refuses tokens smaller than the newest it has seen, so a holder that
 * lost the lock (a paused process, an expired session) cannot overwrite a newer holder's work
 * (Kleppmann, "How to do distributed locking", 2016; Chubby's sequencers).
 *
 * <pre class="code">
 * FencedLock lock = registry.obtain("orders/42");
 * lock.lock();
 * try {
 *     store.write(order, lock.fencingToken());
 * }
 * finally {
 *     lock.unlock();
 * }
 * </pre>
 *
 * @see ZkLockRegistry#obtain(Object)
 */
public interface FencedLock extends Lock {

	/**
	 * The fencing token of the current thread's hold of this lock
	 * ({@link io.zklock.lock.LockHandle#fencingToken()}): a zxid that is its grant's alone, unique
	 * across lock paths and increasing from holder to holder across the ensemble.
	 * @return the token, a positive ZooKeeper transaction id
	 * @throws IllegalStateException if the current thread does not hold this lock, or its hold
	 * is in doubt or lost (the message says which)
	 */
	long fencingToken();

	/**
	 * Whether the current thread holds this lock now: locked by it, not unlocked, not in
	 * doubt (connection suspended) and not lost (session expired). Never calls ZooKeeper.
	 * @return {@code true} while the current thread's hold is held
	 */
	boolean isHeldByCurrentThread();

}
