package io.zklock.lock;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

import io.zklock.internal.LockPaths;
import io.zklock.lock.event.HeldLock;

import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.jspecify.annotations.Nullable;

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
 * One primitive, {@link #tryAcquire(LockRequest)}, and default methods over it, in the spirit
 * of Spring Integration's {@code LockRegistry}. Two styles of hold (see {@link HoldOwner}):
 * <ul>
 * <li>thread-owned, reentrant per thread and lock path:
 * {@link #acquireDistributedLock(String)} then {@link #releaseDistributedLock(String)} on the
 * same thread, {@link #asLock(String)}, {@link #asInterProcessLock(String, LockMode)};</li>
 * <li>call-owned, never reentrant: {@link #acquire}, {@link #tryAcquire} and
 * {@link #executeLocked} return or pass a {@link LockHandle} that carries the fencing token
 * and may be released from any thread; a second acquire of the same lock path queues behind
 * the first, even on the same thread.</li>
 * </ul>
 *
 * <p>
 * Implementations are thread-safe.
 */
public interface ILockByCurator {

	/**
	 * Acquires a lock as the request says: the primitive every other method uses.
	 * @param request the lock path, mode, wait, owner and name
	 * @return the handle, or empty if the request's wait ran out (no lock node is then left
	 * behind); {@link #lastRefusal()} then says why
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws IllegalStateException if the current thread would wait for a lock it holds
	 * itself: a read-to-write upgrade of a thread-owned hold, or a call-owned request for a
	 * lock path the thread holds thread-owned
	 * @throws LockDeadlockException if the request waits without a limit and would close a
	 * deadlock among this process's threads that none of them can leave; a request with a limit
	 * (such as {@link Duration#ZERO}) is never failed for one: it runs out, and its refusal names
	 * the cycle
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if the current thread's thread-owned hold on the path is in doubt
	 * or lost
	 */
	Optional<LockHandle> tryAcquire(LockRequest request);

	/**
	 * The mode of {@link #acquireDistributedLock(String)} and
	 * {@link #tryAcquire(String, Duration)}.
	 * @return {@link LockMode#EXCLUSIVE}; {@link LockMode#READ} for {@link SharedLockByCurator}
	 */
	default LockMode defaultMode() {
		return LockMode.EXCLUSIVE;
	}

	/**
	 * Acquires the lock on {@code path} in {@link #defaultMode()} for the current thread,
	 * waiting as long as it takes: a thread-owned, reentrant hold. Release it with
	 * {@link #releaseDistributedLock(String)} on the same thread, through this same object.
	 * The wait has no limit, also while the ensemble cannot be reached: see
	 * {@link #acquire(String, LockMode)}.
	 * @param path the lock path, such as {@code "orders/42"}
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * the client is closed, or if ZooKeeper fails
	 */
	default void acquireDistributedLock(String path) {
		ThreadBoundLocks.acquire(this, LockRequest.of(path, defaultMode()));
	}

	/**
	 * Releases the lock the current thread took last on {@code path} with
	 * {@link #acquireDistributedLock(String)} (or {@link #asLock(String)}) through this object.
	 * @param path the lock path
	 * @return what the release found: {@link ReleaseResult#STILL_HELD} while an outer
	 * reentrant hold remains, {@link ReleaseResult#LOST} if the lock had been lost,
	 * {@link ReleaseResult#CLEANUP_PENDING} if the delete goes on in the background
	 * @throws IllegalMonitorStateException if the current thread holds no such lock
	 */
	default ReleaseResult releaseDistributedLock(String path) {
		return ThreadBoundLocks.release(this, path);
	}

	/**
	 * Acquires a call-owned lock, waiting as long as it takes.
	 *
	 * <p>
	 * The wait has no limit, also while the ensemble cannot be reached: while the client is
	 * not connected nothing is sent, and the call waits for the connection (Curator reconnects
	 * within the session, or with a new session after the old one expired), however long the
	 * ensemble stays down, then for the lock. It returns only with the lock; it ends otherwise
	 * only by an interrupt or the client's close. To bound it, give a wait:
	 * {@link #tryAcquire(String, LockMode, Duration)}, or {@link #acquire(LockRequest)} with
	 * {@link LockRequest#waitAtMost(Duration)}, whose failure then says whether the client was
	 * connected.
	 * @param path the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @return the handle; release it when done, from any thread
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws IllegalStateException if the current thread holds the lock thread-owned (the
	 * call would wait for itself)
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * the client is closed, or if ZooKeeper fails
	 */
	default LockHandle acquire(String path, LockMode mode) {
		return acquire(LockRequest.of(path, mode));
	}

	/**
	 * Acquires a lock as the request says, and fails if its wait runs out.
	 * @param request the request
	 * @return the handle
	 * @throws LockAcquisitionException if the wait ran out (the message is that of
	 * {@link #lastRefusal()}: it names the lock path and the wait, and, for zklock's beans, what the
	 * wait waited for or that the client was not connected), if interrupted, or if ZooKeeper fails
	 * @see #tryAcquire(LockRequest)
	 */
	default LockHandle acquire(LockRequest request) {
		return tryAcquire(request).orElseThrow(() -> RequestTimeouts.waitRanOut(request, lastRefusal()));
	}

	/**
	 * Why the current thread's most recent acquire through this object returned empty: its wait
	 * ran out, and the refusal says what for (another holder, a deadlock of this process, the
	 * thread's own call-owned hold, no connection) and carries the message {@link #acquire(LockRequest)}
	 * would have thrown. Read it right after a {@link #tryAcquire} or {@link #tryAcquireAll} that
	 * returned empty, or a {@link #asLock(String) Lock view}'s {@code tryLock} that returned
	 * {@code false}, on the same thread: every acquire of the thread replaces it (one that returns a
	 * lock or throws leaves none). Thread-confined; works the same on virtual threads. zklock's beans
	 * share it per engine ({@link LockEngine#lastRefusal()}); this default knows nothing.
	 * @return the refusal, or empty
	 */
	default Optional<LockRefusal> lastRefusal() {
		return Optional.empty();
	}

	/**
	 * Acquires a call-owned lock, waiting at most {@code wait}, measured on
	 * {@link System#nanoTime()}. To name the lock for metrics and events, or to give it an owner, a
	 * hold bound or an uninterruptible wait, build a {@link LockRequest} for
	 * {@link #tryAcquire(LockRequest)}.
	 * @param path the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the handle, or empty if the wait ran out (no lock node is left behind);
	 * {@link #lastRefusal()} then says why
	 * @throws IllegalArgumentException if the lock path is invalid or the wait negative
	 * @see #tryAcquire(LockRequest)
	 */
	default Optional<LockHandle> tryAcquire(String path, LockMode mode, Duration wait) {
		return tryAcquire(LockRequest.of(path, mode).waitAtMost(wait));
	}

	/**
	 * Acquires a call-owned lock in {@link #defaultMode()}, waiting at most {@code wait}.
	 * @param path the lock path
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the handle, or empty if the wait ran out
	 * @see #tryAcquire(String, LockMode, Duration)
	 */
	default Optional<LockHandle> tryAcquire(String path, Duration wait) {
		return tryAcquire(path, defaultMode(), wait);
	}

	/**
	 * Runs {@code callback} under a call-owned lock and releases the lock afterwards, also
	 * when the callback throws.
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
	default <T extends @Nullable Object, E extends Throwable> T executeLocked(String path, LockMode mode,
			Duration wait, LockCallback<T, E> callback) throws E {
		if (callback == null) {
			throw new IllegalArgumentException("Callback for lock path '" + path + "' must not be null");
		}
		try (LockHandle lock = acquire(LockRequest.of(path, mode).waitAtMost(wait))) {
			return callback.doWithLock(lock);
		}
	}

	/**
	 * Runs {@code action} under a call-owned lock and releases the lock afterwards, also when
	 * the action throws: {@code locks.executeLocked("reports", LockMode.WRITE, wait, () -> rebuild())}.
	 * For work that needs the fencing token, returns a value or throws a checked exception, use
	 * {@link #executeLocked(String, LockMode, Duration, LockCallback)}.
	 * @param path the lock path
	 * @param mode the lock mode
	 * @param wait the longest wait for the lock; {@link Duration#ZERO} tries once
	 * @param action the work
	 * @throws LockAcquisitionException if the lock was not acquired within {@code wait}
	 * @throws RuntimeException what the action throws
	 */
	default void executeLocked(String path, LockMode mode, Duration wait, Runnable action) {
		if (action == null) {
			throw new IllegalArgumentException("Action for lock path '" + path + "' must not be null");
		}
		try (LockHandle lock = acquire(LockRequest.of(path, mode).waitAtMost(wait))) {
			action.run();
		}
	}

	/**
	 * Acquires call-owned locks on several lock paths, all or nothing, under one overall
	 * deadline, in one canonical order (sorted lock paths), so that callers naming the same
	 * paths in different orders cannot deadlock.
	 * @param paths the lock paths; duplicates count once
	 * @param mode the mode of every lock
	 * @param wait the longest wait for all of them together; {@link Duration#ZERO} tries once
	 * @return the held group, or empty if the wait ran out (nothing is left held);
	 * {@link #lastRefusal()} then names the lock path that was not acquired and why
	 * @throws IllegalArgumentException if a lock path is invalid, the collection empty or the
	 * wait negative
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails (nothing is left
	 * held)
	 */
	default Optional<LockGroup> tryAcquireAll(Collection<String> paths, LockMode mode, Duration wait) {
		return LockGroup.acquire(this, paths, mode, wait);
	}

	/**
	 * Acquires several locks, each as its request says (mode, lock name, owner, hold bound and
	 * its reaction), all or nothing, under one overall deadline that replaces the requests' own
	 * waits, in one canonical order (sorted lock paths), so that callers naming the same paths
	 * in different orders cannot deadlock. {@code @DistributedLock} takes a call's locks so.
	 * @param requests the requests, at least one; each lock path once
	 * @param wait the longest wait for all of them together; {@link Duration#ZERO} tries once
	 * @return the held group, or empty if the wait ran out (nothing is left held);
	 * {@link #lastRefusal()} then names the lock path that was not acquired and why
	 * @throws IllegalArgumentException if a lock path is invalid, the list empty or the wait
	 * negative
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails (nothing is left
	 * held)
	 */
	default Optional<LockGroup> tryAcquireAll(List<LockRequest> requests, Duration wait) {
		return LockGroup.acquire(this, requests, wait);
	}

	/**
	 * The lock on {@code path} as a {@link Lock}: fair (FIFO by lock-node order), thread-owned
	 * and reentrant, in {@link LockMode#EXCLUSIVE} mode. {@code lock()} waits through
	 * interrupts without losing its place in the queue; {@code unlock()} must run on the
	 * locking thread; {@code newCondition()} throws {@link UnsupportedOperationException}.
	 * {@code tryLock()} and {@code tryLock(time, unit)} return {@code false} when they cannot
	 * lock, never throwing {@link LockDeadlockException} (then {@link #lastRefusal()} says why);
	 * {@code lock()} throws it for a deadlock of this process that no thread on it can leave.
	 * @param path the lock path
	 * @return a lock view; cheap, create as many as you like
	 * @throws IllegalArgumentException if the lock path is invalid
	 */
	default Lock asLock(String path) {
		return new ZooKeeperLock(this, path, LockMode.EXCLUSIVE);
	}

	/**
	 * The lock on {@code path} as a Curator {@link InterProcessLock}, for use in Curator's
	 * {@code InterProcessMultiLock}; thread-owned like Curator's own locks.
	 * @param path the lock path
	 * @param mode the lock mode
	 * @return a lock view
	 * @throws IllegalArgumentException if the lock path or the mode is invalid
	 */
	default InterProcessLock asInterProcessLock(String path, LockMode mode) {
		return new InterProcessLockAdapter(this, path, mode);
	}

	/**
	 * The locks held through this object's engine now, oldest first.
	 * @return a snapshot, one entry per lock node
	 * @throws UnsupportedOperationException if this implementation does not report its holds
	 * (zklock's own do)
	 */
	default List<HeldLock> heldLocks() {
		throw new UnsupportedOperationException(getClass().getName() + " does not report the locks it holds");
	}

	/**
	 * Whether the current thread holds a thread-owned lock on the path, in any mode: taken
	 * with {@link #acquireDistributedLock(String)}, {@link #asLock(String)} or a synchronous
	 * {@code @DistributedLock} method. Call-owned holds belong to no thread and do not count,
	 * nor do holds whose handles were detached from the thread
	 * ({@link LockHandle#detachFromThread()}).
	 * @param path the lock path
	 * @return {@code true} if held by this thread
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws UnsupportedOperationException if this implementation does not report its holds
	 */
	default boolean isHeldByCurrentThread(String path) {
		String lockPath = LockPaths.normalize(path);
		long thread = Thread.currentThread().getId();
		return heldLocks().stream()
			.anyMatch((held) -> held.owner() == HoldOwner.THREAD && held.holderThreadId() == thread
					&& held.lockPath().equals(lockPath));
	}

}
