package io.zklock.lock;

/**
 * Thrown at once, instead of waiting, by an acquire without a wait limit that would close a
 * deadlock among the threads of this process that none of them can leave: each thread on the
 * cycle waits for a lock that the next holds, and the cycle is <em>certain</em>. zklock knows every
 * hold and waiter of its engine and looks for the cycle when a wait begins, as the JVM's
 * {@code ThreadMXBean.findDeadlockedThreads} does for monitors. The message names every thread on
 * the cycle, the lock it waits for, and who holds that lock since when and where it was acquired.
 * The acquire that fails leaves nothing behind.
 *
 * <p>
 * The rule: a cycle is certain only when every wait on it has no limit and every hold on it is a
 * live thread-owned hold ({@link LockState#HELD}, owned by its thread, which only that waiting
 * thread can release). Anything else lets a thread on the cycle go on, so the cycle is only
 * <em>likely</em>, and no acquire is failed for it:
 * <ul>
 * <li>a wait with a limit gives up when it runs out, and its thread may then release what it holds
 * (the classic back-off: thread U holds A and calls {@code tryLock(3, SECONDS)} on B while thread T
 * holds B and calls {@code lock()} on A; U gives up, unlocks A, and T gets A);</li>
 * <li>a call-owned hold (or a handle detached from its thread) may be released by another
 * thread;</li>
 * <li>a hold in doubt may turn out lost, and its lock node go with its session.</li>
 * </ul>
 * A released or lost hold is no part of a cycle at all. So an acquire with a limit, such as
 * {@code tryLock()}, {@code tryLock(time, unit)} or {@code tryAcquire(path, mode, Duration.ZERO)}, is
 * never failed for a cycle: it runs out, its {@link LockRefusal} has reason
 * {@link LockRefusal.Reason#DEADLOCK}, and its time-out message names the cycle. An acquire
 * without a limit that closes a likely cycle waits, and the cycle is logged (WARN where only a
 * release by another thread or a loss can end it, INFO where another thread on it waits with a
 * limit). Of two threads that close a certain cycle at the same time, the one that enters its wait
 * second fails; a cycle that becomes certain later (a thread whose wait with a limit ran out waits
 * again without one, say) fails the acquire that makes it so.
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
