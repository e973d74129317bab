package io.zklock.lock;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.recipes.locks.InterProcessLock;

/**
 * Distributed locks on ZooKeeper, the injectable API of zklock.
 *
 * <p>
 * A lock path such as {@code "orders/42"} names a lock under the lock root
 * ({@code zklock.root-path}, default {@code /locks}). Waiters queue in FIFO order of their
 * lock nodes, and each watches only the node it waits for, so one release wakes one waiter
 * (the lock recipe of the ZooKeeper documentation, as Curator implements it).
 *
 * <p>
 * Two styles:
 * <ul>
 * <li>thread-bound, as in the classic Curator examples:
 * {@link #acquireDistributedLock(String)} then {@link #releaseDistributedLock(String)} on
 * the same thread, in the mode given by {@link #defaultMode()};</li>
 * <li>handle-based: {@link #acquire}, {@link #tryAcquire} and {@link #executeLocked} return
 * or pass a {@link LockHandle} that carries the fencing token and may be released from any
 * thread.</li>
 * </ul>
 * Locks are reentrant per thread and lock path: a thread that holds a lock acquires it
 * again at once, with no ZooKeeper call. A thread that holds a write or exclusive lock may
 * also take the read lock on the same path; the reverse (upgrade) is refused.
 *
 * <p>
 * Implementations are thread-safe.
 */
public interface ILockByCurator {

	/**
	 * The mode of {@link #acquireDistributedLock(String)} and
	 * {@link #tryAcquire(String, Duration)}.
	 * @return {@link LockMode#EXCLUSIVE} for {@link ExclusiveLockByCurator},
	 * {@link LockMode#READ} for {@link SharedLockByCurator}
	 */
	LockMode defaultMode();

	/**
	 * Acquires the lock on {@code path} in {@link #defaultMode()} for the current thread,
	 * waiting as long as it takes. Release it with {@link #releaseDistributedLock(String)} on
	 * the same thread.
	 * @param path the lock path, such as {@code "orders/42"}
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	void acquireDistributedLock(String path);

	/**
	 * Releases the lock the current thread took last on {@code path} with
	 * {@link #acquireDistributedLock(String)}.
	 * @param path the lock path
	 * @return what the release found: {@link ReleaseResult#LOST} if the lock node was already
	 * gone, {@link ReleaseResult#CLEANUP_PENDING} if the delete is being retried
	 * @throws IllegalMonitorStateException if the current thread holds no such lock
	 */
	ReleaseResult releaseDistributedLock(String path);

	/**
	 * Acquires a lock, waiting as long as it takes.
	 * @param path the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @return the handle; release it when done
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws IllegalStateException if the thread would upgrade a read lock it holds
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	LockHandle acquire(String path, LockMode mode);

	/**
	 * Acquires a lock, waiting at most {@code wait}, measured on {@link System#nanoTime()}.
	 * @param path the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the handle, or empty if the wait ran out (no lock node is left behind)
	 * @throws IllegalArgumentException if the lock path is invalid or the wait negative
	 * @throws IllegalStateException if the thread would upgrade a read lock it holds
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	Optional<LockHandle> tryAcquire(String path, LockMode mode, Duration wait);

	/**
	 * Acquires a lock under a declared lock name, waiting at most {@code wait}. The name
	 * labels metrics and events instead of the lock path, so that locks on many keys
	 * ({@code "orders/1"}, {@code "orders/2"}, …) share one label ({@code "orders"}).
	 * @param path the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @param lockName a label of bounded cardinality; {@code null} uses the first segment of
	 * the lock path
	 * @return the handle, or empty if the wait ran out (no lock node is left behind)
	 * @see #tryAcquire(String, LockMode, Duration)
	 */
	Optional<LockHandle> tryAcquire(String path, LockMode mode, Duration wait, String lockName);

	/**
	 * Acquires a lock in {@link #defaultMode()}, waiting at most {@code wait}.
	 * @param path the lock path
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the handle, or empty if the wait ran out
	 * @see #tryAcquire(String, LockMode, Duration)
	 */
	default Optional<LockHandle> tryAcquire(String path, Duration wait) {
		return tryAcquire(path, defaultMode(), wait);
	}

	/**
	 * Runs {@code callback} under the lock and releases the lock afterwards, also when the
	 * callback throws.
	 * @param <T> the result type
	 * @param <E> the exception type of the callback
	 * @param path the lock path
	 * @param mode the lock mode
	 * @param wait the longest wait for the lock; {@link Duration#ZERO} tries once
	 * @param callback the work; it gets the handle, for the fencing token
	 * @return the callback's result
	 * @throws LockAcquisitionException if the lock was not acquired within {@code wait}; the
	 * message names the lock path and the wait
	 * @throws E what the callback throws
	 */
	<T, E extends Throwable> T executeLocked(String path, LockMode mode, Duration wait, LockCallback<T, E> callback)
			throws E;

	/**
	 * Acquires locks on several lock paths, all or nothing, under one overall deadline, in
	 * one canonical order (sorted lock paths), so that callers naming the same paths in
	 * different orders cannot deadlock.
	 * @param paths the lock paths; duplicates count once
	 * @param mode the mode of every lock
	 * @param wait the longest wait for all of them together; {@link Duration#ZERO} tries once
	 * @return the held group, or empty if the wait ran out (nothing is left held)
	 * @throws IllegalArgumentException if a lock path is invalid, the collection empty or the
	 * wait negative
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	Optional<LockGroup> tryAcquireAll(Collection<String> paths, LockMode mode, Duration wait);

	/**
	 * The lock on {@code path} as a {@link Lock}: fair (FIFO by lock-node order) and
	 * reentrant, in {@link LockMode#EXCLUSIVE} mode. {@code unlock()} must run on the locking
	 * thread; {@code newCondition()} throws {@link UnsupportedOperationException}.
	 * @param path the lock path
	 * @return a lock view; cheap, create as many as you like
	 * @throws IllegalArgumentException if the lock path is invalid
	 */
	Lock asLock(String path);

	/**
	 * The lock on {@code path} as a Curator {@link InterProcessLock}, for use in Curator's
	 * {@code InterProcessMultiLock}; thread-bound like Curator's own locks.
	 * @param path the lock path
	 * @param mode the lock mode
	 * @return a lock view
	 * @throws IllegalArgumentException if the lock path is invalid
	 */
	InterProcessLock asInterProcessLock(String path, LockMode mode);

	/**
	 * Whether the current thread holds a lock on the path, in any mode.
	 * @param path the lock path
	 * @return {@code true} if held by this thread
	 */
	boolean isHeldByCurrentThread(String path);

}
