package io.zklock.lock;

/**
 * Thrown at once, instead of waiting, by an acquire that would close a deadlock among the threads
 * of this process: each thread on the cycle waits for a lock that the next holds through a
 * thread-owned hold, which only that (waiting) thread can release. zklock knows every hold and
 * waiter of its engine and looks for the cycle when a wait begins, as the JVM's
 * {@code ThreadMXBean.findDeadlockedThreads} does for monitors. The message names every thread on
 * the cycle, the lock it waits for, and who holds that lock since when and where it was acquired.
 * A cycle through a call-owned hold, which any thread may release, is only likely: it is logged
 * (for a wait without a limit) and named in the wait's time-out message, and never fails an
 * acquire. The acquire that fails leaves nothing behind.
 */
public class LockDeadlockException extends LockAcquisitionException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param lockPath the lock path whose acquire would have closed the cycle
	 * @param message the cycle, in words
	 */
	public LockDeadlockException(String lockPath, String message) {
		super(lockPath, message);
	}

}
