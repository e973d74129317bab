package io.zklock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;

/**
 * The locks (or the permit) one annotated call holds. Released once, from any thread, in
 * reverse order of acquisition: when the call's work is done ({@link #workDone()}), which with
 * a shortest hold ({@link DistributedLock#holdAtLeast()}) may be later, in the background; or
 * at once ({@link #release()}) when the work never started. Thread-safe.
 */
final class AcquiredLocks {

	private static final Log logger = LogFactory.getLog(AcquiredLocks.class);

	/** What becomes of a method's result under {@code zklock.on-lock-lost=fail}, for messages. */
	static final String RESULT_DISCARDED = "its result was discarded (zklock.on-lock-lost=fail)";

	private final List<LockHandle> locks;

	private final @Nullable PermitLease permit;

	private final String methodDescription;

	private final Duration holdAtLeast;

	private final @Nullable LockReleaseScheduler releases;

	/** When the call got everything, on {@link System#nanoTime()}. */
	private final long grantedAt = System.nanoTime();

	private final AtomicBoolean workDone = new AtomicBoolean();

	private final AtomicBoolean released = new AtomicBoolean();

	private AcquiredLocks(List<LockHandle> locks, @Nullable PermitLease permit, String methodDescription,
			Duration holdAtLeast, @Nullable LockReleaseScheduler releases) {
		this.locks = List.copyOf(locks);
		this.permit = permit;
		this.methodDescription = methodDescription;
		this.holdAtLeast = holdAtLeast;
		this.releases = releases;
	}

	static AcquiredLocks ofLocks(List<LockHandle> locks, String methodDescription) {
		return new AcquiredLocks(locks, null, methodDescription, Duration.ZERO, null);
	}

	/**
	 * Locks that are kept at least {@code holdAtLeast} after they were all granted (now), by
	 * {@code releases}, when the work ends sooner.
	 */
	static AcquiredLocks ofLocks(List<LockHandle> locks, String methodDescription, Duration holdAtLeast,
			LockReleaseScheduler releases) {
		return new AcquiredLocks(locks, null, methodDescription, holdAtLeast, releases);
	}

	static AcquiredLocks ofPermit(PermitLease permit, String methodDescription) {
		return new AcquiredLocks(List.of(), permit, methodDescription, Duration.ZERO, null);
	}

	/** The lock handles, in acquisition order; empty for a permit. */
	List<LockHandle> locks() {
		return this.locks;
	}

	/**
	 * The exception for work that ends now, if a lock or the permit is not held any more (lost,
	 * or in doubt and not confirmed again).
	 * @param when what is ending, for the message, such as {@code "returned"}
	 * @param consequence what becomes of the work, for the message, such as {@code "its result
	 * was discarded"}
	 * @return the exception, or {@code null} if everything is still held
	 */
	@Nullable LockLostException lostException(String when, String consequence) {
		for (LockHandle lock : this.locks) {
			if (lock.state() != LockState.HELD) {
				return new LockLostException(lock.lockPath(), lock.fencingToken(), lock.state(),
						"The " + lock.mode() + " lock on '" + lock.lockPath() + "' (fencing token " + lock.fencingToken()
								+ ") was " + lock.state() + " when " + this.methodDescription + " " + when + "; "
								+ consequence);
			}
		}
		PermitLease lease = this.permit;
		if (lease != null && lease.state() != LockState.HELD) {
			return new LockLostException(lease.path(), 0, lease.state(), "The permit of semaphore '" + lease.path()
					+ "' was " + lease.state() + " when " + this.methodDescription + " " + when + "; " + consequence);
		}
		return null;
	}

	/**
	 * Runs {@code onLoss} once, on the thread that notices, when any lock or the permit stops
	 * being held; at once if one is not held now.
	 * @return unregisters the callback
	 */
	Runnable onLoss(Runnable onLoss) {
		AtomicBoolean fired = new AtomicBoolean();
		Runnable once = () -> {
			if (fired.compareAndSet(false, true)) {
				onLoss.run();
			}
		};
		List<Runnable> unregister = new ArrayList<>();
		this.locks.forEach((lock) -> unregister.add(lock.onLost((handle) -> once.run())));
		if (this.permit != null) {
			unregister.add(this.permit.onLost((lease) -> once.run()));
		}
		return () -> unregister.forEach(Runnable::run);
	}

	/**
	 * The call's work is done: releases now, or, if the shortest hold is not over yet, detaches
	 * the thread-owned locks from the calling thread now (it no longer holds them) and releases
	 * everything in the background when the hold is over. Once; later calls do nothing. Never
	 * throws.
	 */
	void workDone() {
		if (!this.workDone.compareAndSet(false, true)) {
			return;
		}
		LockReleaseScheduler scheduler = this.releases;
		if (scheduler == null || this.holdAtLeast.isZero()) {
			release();
			return;
		}
		long due = this.grantedAt + this.holdAtLeast.toNanos();
		if (due - System.nanoTime() <= 0) {
			release();
			return;
		}
		this.locks.forEach(LockHandle::detachFromThread);
		scheduler.releaseAt(this, due);
	}

	/** Releases everything now, once; later calls do nothing. Never throws. */
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
