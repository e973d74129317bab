package io.zklock.lock;

/**
 * Why an acquire returned empty instead of a lock: its wait ran out (a wait of
 * {@link java.time.Duration#ZERO} runs out at once), and this says what it ran out for. Read it
 * after {@link ILockByCurator#tryAcquire(LockRequest) tryAcquire} or
 * {@link ILockByCurator#tryAcquireAll(java.util.List, java.time.Duration) tryAcquireAll} returned
 * empty, or a {@link ILockByCurator#asLock(String) Lock view}'s {@code tryLock} returned
 * {@code false}, from {@link ILockByCurator#lastRefusal()} on the same thread:
 *
 * <pre class="code">
 * Optional&lt;LockHandle&gt; lock = locks.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ZERO);
 * if (lock.isEmpty()) {
 *     LockRefusal refusal = locks.lastRefusal().orElseThrow();
 *     if (refusal.reason() == LockRefusal.Reason.NOT_CONNECTED) {
 *         ...
 *     }
 * }
 * </pre>
 *
 * An acquire that fails with an exception (interrupted, ZooKeeper failed, a deadlock of this
 * process that no thread on it could leave, an engine that stopped granting) has no refusal; the
 * exception says why. Immutable.
 *
 * @param lockPath the lock path that was not acquired, relative to the lock root and normalized
 * (no leading {@code '/'}), such as {@code "orders/42"}; for {@code tryAcquireAll}, the one of the
 * group that was not acquired
 * @param mode the mode asked for
 * @param reason what the wait ran out for
 * @param message the same words {@link ILockByCurator#acquire(LockRequest)}'s
 * {@link LockAcquisitionException} carries for such a wait: the lock path, the wait, and what it
 * waited for ({@link LockEngine#explainWait(LockRequest)}), or that the client was not connected
 */
public record LockRefusal(String lockPath, LockMode mode, Reason reason, String message) {

	/**
	 * @throws IllegalArgumentException if a component is {@code null}
	 */
	public LockRefusal {
		if (lockPath == null || mode == null || reason == null || message == null) {
			throw new IllegalArgumentException("A lock refusal needs a lock path, a mode, a reason and a message; got "
					+ lockPath + ", " + mode + ", " + reason + ", " + message);
		}
	}

	/** What a wait ran out for, as far as this process can tell when it ran out. */
	public enum Reason {

		/**
		 * Another holder has the lock: another process, or another thread or call of this one, and
		 * the wait ran out first. The message names the holder where this process knows it.
		 */
		BUSY,

		/**
		 * The acquire would have closed a cycle of waits among this process's threads: each waits
		 * for a lock the next holds. Certain (no other thread on the cycle can go on), or likely
		 * (another thread on it may give up, or release a call-owned handle). The message names the
		 * cycle. An acquire without a limit is failed with {@link LockDeadlockException} instead
		 * when the cycle is certain; one with a limit, such as {@code tryLock()}, only runs out.
		 */
		DEADLOCK,

		/**
		 * The current thread holds the lock itself through a call-owned handle (or a handle it
		 * detached from the thread), so that only a release of that handle, by this thread or
		 * another, lets the acquire in.
		 */
		OWN_CALL_OWNED_HOLD,

		/**
		 * The client was not connected to the ensemble when the wait ran out: nothing can be
		 * acquired until it reconnects, and the wait ran out for the connection, not for the lock's
		 * holders.
		 */
		NOT_CONNECTED

	}

}
