package io.zklock.lock;

/**
 * Who owns a hold, which decides whether a second acquire of the same lock path joins it.
 *
 * <p>
 * A lock library whose holds are keyed by thread lets two calls run under one exclusive lock
 * as soon as a call outlives its thread (a {@code CompletionStage}, a Reactor publisher, an
 * {@code @Async} task on a reused worker): the second call on that thread joins the first
 * hold. zklock therefore gives every hold an explicit owner.
 */
public enum HoldOwner {

	/**
	 * The acquiring thread owns the hold and releases it on that thread: the classic
	 * {@link ILockByCurator#acquireDistributedLock(String)} /
	 * {@link ILockByCurator#releaseDistributedLock(String)} pair,
	 * {@link ILockByCurator#asLock(String)}, {@link ILockByCurator#asInterProcessLock} and
	 * synchronous {@code @DistributedLock} methods. Reentrant per thread and lock path, like
	 * {@link java.util.concurrent.locks.ReentrantLock}: the thread acquires again at once, with
	 * no ZooKeeper call; a thread holding a write or exclusive lock may also take the read
	 * lock on the same path. {@link LockHandle#detachFromThread()} hands such a hold over
	 * from its thread to its handle, to be released later from any thread.
	 */
	THREAD,

	/**
	 * A call owns the hold, and may release it from any thread: handles from
	 * {@link ILockByCurator#acquire(String, LockMode)} and
	 * {@link ILockByCurator#tryAcquire(String, LockMode, java.time.Duration)}, and annotated
	 * methods that return a {@code CompletionStage}, {@code Mono} or {@code Flux}. Never
	 * reentrant: a second call-owned acquire of the same lock path queues behind the first
	 * one's lock node, even on the same thread.
	 */
	CALL

}
