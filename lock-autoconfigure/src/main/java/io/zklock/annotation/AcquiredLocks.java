package io.zklock.annotation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.lock.LockHandle;
import io.zklock.lock.LockState;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;

/**
 * The locks (or the permit) one annotated call holds. Released once, from any thread, in
 * reverse order of acquisition.
 */
final class AcquiredLocks {

	private static final Log logger = LogFactory.getLog(AcquiredLocks.class);

	private final List<LockHandle> locks;

	private final PermitLease permit;

	private final String methodDescription;

	private final AtomicBoolean released = new AtomicBoolean();

	private AcquiredLocks(List<LockHandle> locks, PermitLease permit, String methodDescription) {
		this.locks = List.copyOf(locks);
		this.permit = permit;
		this.methodDescription = methodDescription;
	}

	static AcquiredLocks ofLocks(List<LockHandle> locks, String methodDescription) {
		return new AcquiredLocks(locks, null, methodDescription);
	}

	static AcquiredLocks ofPermit(PermitLease permit, String methodDescription) {
		return new AcquiredLocks(List.of(), permit, methodDescription);
	}

	List<LockHandle> locks() {
		return this.locks;
	}

	/** The first lock that is not held any more, or {@code null} if all are (or this is a permit). */
	LockHandle firstNotHeld() {
		for (LockHandle lock : this.locks) {
			if (lock.state() != LockState.HELD) {
				return lock;
			}
		}
		return null;
	}

	/** Releases everything once; later calls do nothing. Never throws. */
	void release() {
		if (!this.released.compareAndSet(false, true)) {
			return;
		}
		if (this.permit != null) {
			warnIf(this.permit.release(), "a permit of semaphore '" + this.permit.path() + "'");
		}
		List<LockHandle> reversed = new ArrayList<>(this.locks);
		Collections.reverse(reversed);
		for (LockHandle lock : reversed) {
			try {
				warnIf(lock.release(), "the " + lock.mode() + " lock on '" + lock.lockPath() + "'");
			}
			catch (RuntimeException ex) {
				logger.warn("Releasing the lock on '" + lock.lockPath() + "' after " + this.methodDescription
						+ " failed", ex);
			}
		}
	}

	private void warnIf(ReleaseResult result, String what) {
		if (result == ReleaseResult.LOST || result == ReleaseResult.CLEANUP_PENDING) {
			logger.warn("Releasing " + what + " after " + this.methodDescription + ": " + result);
		}
	}

}
