package io.zklock.lock;

import java.util.ArrayDeque;
import java.util.Iterator;

import io.zklock.internal.LockPaths;

/**
 * The thread-owned handles of the classic calls ({@link ILockByCurator#acquireDistributedLock},
 * {@link ILockByCurator#asLock}, {@link ILockByCurator#asInterProcessLock}), per thread, so that
 * a release by lock path finds the handle the same thread took last through the same
 * {@link ILockByCurator}. A stack per thread: nothing is shared between threads.
 */
final class ThreadBoundLocks {

	private static final ThreadLocal<ArrayDeque<Bound>> BOUND = new ThreadLocal<>();

	private ThreadBoundLocks() {
	}

	/** Acquires a thread-owned lock as {@code request} says and binds it to the current thread. */
	static void acquire(ILockByCurator api, LockRequest request) {
		bind(api, api.acquire(request.ownedBy(HoldOwner.THREAD)));
	}

	/**
	 * Tries a thread-owned lock as {@code request} says and binds it to the current thread.
	 * @return whether the lock was acquired
	 */
	static boolean tryAcquire(ILockByCurator api, LockRequest request) {
		return api.tryAcquire(request.ownedBy(HoldOwner.THREAD)).map((handle) -> {
			bind(api, handle);
			return true;
		}).orElse(false);
	}

	static void bind(ILockByCurator api, LockHandle handle) {
		ArrayDeque<Bound> stack = BOUND.get();
		if (stack == null) {
			stack = new ArrayDeque<>();
			BOUND.set(stack);
		}
		stack.push(new Bound(api, handle));
	}

	/**
	 * Releases the handle the current thread bound last for {@code path} through {@code api}.
	 * @throws IllegalMonitorStateException if there is none
	 */
	static ReleaseResult release(ILockByCurator api, String path) {
		String lockPath = LockPaths.normalize(path);
		ArrayDeque<Bound> stack = BOUND.get();
		if (stack != null) {
			for (Iterator<Bound> it = stack.iterator(); it.hasNext();) {
				Bound bound = it.next();
				if (bound.api() == api && bound.handle().lockPath().equals(lockPath)) {
					it.remove();
					if (stack.isEmpty()) {
						BOUND.remove();
					}
					return bound.handle().release();
				}
			}
		}
		throw new IllegalMonitorStateException("Thread '" + Thread.currentThread().getName()
				+ "' holds no lock on '" + lockPath + "' taken with acquireDistributedLock or asLock through this "
				+ api.getClass().getSimpleName() + "; acquire it first on this thread through the same object, "
				+ "or release the LockHandle you got from acquire/tryAcquire");
	}

	/** Whether the current thread has a handle bound for {@code path} through {@code api}. */
	static boolean isBound(ILockByCurator api, String path) {
		String lockPath = LockPaths.normalize(path);
		ArrayDeque<Bound> stack = BOUND.get();
		return stack != null && stack.stream()
			.anyMatch((bound) -> bound.api() == api && bound.handle().lockPath().equals(lockPath));
	}

	private record Bound(ILockByCurator api, LockHandle handle) {
	}

}
