package io.zklock.lock.internal;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockState;
import org.jspecify.annotations.Nullable;

/**
 * What an acquire does when the current thread already holds a thread-owned lock on the same
 * lock path: a thread-owned request joins the hold (no ZooKeeper call), as
 * {@link java.util.concurrent.locks.ReentrantLock} does; a request that could only wait for
 * the thread's own lock fails at once instead of deadlocking.
 */
final class Reentry {

	private Reentry() {
	}

	/**
	 * @return a handle on the joined hold, or {@code null} if the request queues as usual: the
	 * hold was released meanwhile, or a call-owned request finds the thread's hold lost (its
	 * node is gone)
	 * @throws IllegalStateException for an upgrade or a call-owned request: it would wait for
	 * the thread's own lock forever
	 * @throws LockAcquisitionException if the held lock is in doubt or lost
	 */
	static @Nullable HoldHandle enter(LockRelease release, LockHold own, LockRequest request) {
		String thread = Thread.currentThread().getName();
		String lockPath = own.lockPath();
		LockState state = own.state();
		if (request.owner() == HoldOwner.CALL) {
			if (state == LockState.LOST) {
				// the thread's node is gone: a call-owned request queues like any other
				return null;
			}
			throw new IllegalStateException("Thread '" + thread + "' holds the " + own.mode() + " lock on '" + lockPath
					+ "' thread-owned, and a call-owned " + request.mode() + " acquire of the same lock path would "
					+ "queue behind it and wait for it forever; use the thread-owned hold you have (it is "
					+ "reentrant), or release it first");
		}
		if (!own.mode().covers(request.mode())) {
			throw new IllegalStateException("Thread '" + thread + "' holds a " + own.mode() + " lock on '" + lockPath
					+ "' and asked for " + request.mode() + ": upgrading would wait for its own lock forever; release the "
					+ own.mode() + " lock first, or take the " + request.mode() + " lock from the start");
		}
		if (state == LockState.IN_DOUBT || state == LockState.LOST) {
			// re-entering would hand out a lock another process may hold by now
			throw new LockAcquisitionException(lockPath, "Thread '" + thread + "' holds the " + own.mode()
					+ " lock on '" + lockPath + "' (fencing token " + own.fencingToken() + ") but it is " + state
					+ ": release that hold, then acquire the lock again");
		}
		return own.enter() ? new HoldHandle(release, own) : null;
	}

}
