package io.zklock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;

/**
 * The locks (or the permit) one annotated call holds. Released once, from any thread, in
 * reverse order of acquisition: when the call's work is done ({@link #workDone()}), which with
 * a shortest hold ({@link DistributedLock#holdAtLeast()}) may be later, in the background; when
 * its work was cancelled where its end cannot be seen ({@link #workCancelled(String)}),
 * {@code zklock.hold-after-cancel} later, loudly; or at once ({@link #release()}) when the work
 * never started. Its {@link #watch() watch} reports a hold that passes
 * {@link DistributedLock#holdAtMost()}. Thread-safe.
 */
final class AcquiredLocks {

	private static final Log logger = LogFactory.getLog(AcquiredLocks.class);

	/** What becomes of a method's result under {@code zklock.on-lock-lost=fail}, for messages. */
	static final String RESULT_DISCARDED = "its result was discarded (zklock.on-lock-lost=fail)";

	private final List<LockHandle> locks;

	private final @Nullable PermitLease permit;

	private final String methodDescription;

	private final Duration holdAtLeast;

	private final @Nullable HoldBounds bounds;

	/** When the call got everything, on {@link System#nanoTime()}. */
	private final long grantedAt = System.nanoTime();

	private final HoldWatch watch;

	/** {@link #WORKING}, {@link #DONE} or {@link #CANCELLED}. */
	private final AtomicInteger work = new AtomicInteger(WORKING);

	private final AtomicBoolean released = new AtomicBoolean();

	private static final int WORKING = 0;

	private static final int DONE = 1;

	private static final int CANCELLED = 2;

	private AcquiredLocks(List<LockHandle> locks, @Nullable PermitLease permit, String methodDescription, Duration holdAtLeast, @Nullable HoldBounds bounds,
			@Nullable Duration holdAtMost, OnHoldExceeded policy) {
		this.locks = List.copyOf(locks);
		this.permit = permit;
		this.methodDescription = methodDescription;
		this.holdAtLeast = holdAtLeast;
		this.bounds = bounds;
		this.watch = (bounds != null && holdAtMost != null) ? new HoldWatch(this, holdAtMost, policy, bounds)
				: HoldWatch.NONE;
	}

	/** Locks without bounds, such as the part of a call's locks to give back when the rest failed. */
	static AcquiredLocks ofLocks(List<LockHandle> locks, String methodDescription) {
		return new AcquiredLocks(locks, null, methodDescription, Duration.ZERO, null, null, OnHoldExceeded.WARN);
	}

	/**
	 * Locks that are kept at least {@code holdAtLeast} after they were all granted (now) when
	 * the work ends sooner, and whose hold is watched against {@code holdAtMost}.
	 * @param holdAtMost the bound on the hold, or {@code null} for none
	 * @param policy what to do when it passes
	 */
	static AcquiredLocks ofLocks(List<LockHandle> locks, String methodDescription, Duration holdAtLeast,
			HoldBounds bounds, @Nullable Duration holdAtMost, OnHoldExceeded policy) {
		AcquiredLocks held = new AcquiredLocks(locks, null, methodDescription, holdAtLeast, bounds, holdAtMost, policy);
		held.watch.start(held.grantedAt);
		return held;
	}

	/** A permit of a semaphore; a cancelled call keeps it as a cancelled call keeps locks. */
	static AcquiredLocks ofPermit(PermitLease permit, String methodDescription, HoldBounds bounds) {
		return new AcquiredLocks(List.of(), permit, methodDescription, Duration.ZERO, bounds, null,
				OnHoldExceeded.WARN);
	}

	/** The lock handles, in acquisition order; empty for a permit. */
	List<LockHandle> locks() {
		return this.locks;
	}

	/** The permit, or {@code null} for locks. */
	@Nullable PermitLease permit() {
		return this.permit;
	}

	/** The method, as {@code Type.method(Params)}, for messages. */
	String methodDescription() {
		return this.methodDescription;
	}

	/** When the call got everything, on {@link System#nanoTime()}. */
	long grantedAt() {
		return this.grantedAt;
	}

	/** The watch of the call's {@link DistributedLock#holdAtMost()}; inert without one. */
	HoldWatch watch() {
		return this.watch;
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
	 * everything in the background when the hold is over. Once; later calls do nothing, and so
	 * does a call after {@link #workCancelled(String)}. Never throws.
	 */
	void workDone() {
		if (this.work.compareAndSet(WORKING, DONE)) {
			this.watch.stop();
			finishWork();
		}
	}

	/**
	 * The call's work was cancelled where its end cannot be seen (a cancelled stage completes
	 * at once, a cancelled publisher signals nothing more): the locks are kept
	 * {@code zklock.hold-after-cancel} more, then released as at the end of the work, with a
	 * WARN and an event ({@link HoldReports#releasedAfterCancel}). Once, and only while the work
	 * is not done; later {@link #workDone()} calls do nothing. Never releases on the calling
	 * thread. Never throws.
	 * @param how who cancelled it, for the message, such as {@code "its subscriber cancelled
	 * it"}
	 */
	void workCancelled(String how) {
		if (!this.work.compareAndSet(WORKING, CANCELLED)) {
			return;
		}
		this.watch.stop();
		HoldBounds hold = this.bounds;
		if (hold == null) {
			finishWork();
			return;
		}
		long cancelledAt = System.nanoTime();
		hold.scheduler().releaseLater(() -> {
			HoldReports.releasedAfterCancel(this, hold, cancelledAt, how);
			finishWork();
		}, cancelledAt + hold.holdAfterCancel().toNanos());
	}

	/** Whether the work was cancelled ({@link #workCancelled(String)}). */
	boolean isCancelled() {
		return this.work.get() == CANCELLED;
	}

	private void finishWork() {
		LockReleaseScheduler scheduler = (this.bounds != null) ? this.bounds.scheduler() : null;
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
