package io.zklock.interceptor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.HoldExceededException;
import io.zklock.annotation.OnHoldExceeded;

/**
 * Watches one call's hold against its {@link DistributedLock#holdAtMost()}: when the bound
 * passes while the call's work still runs, reports it ({@link HoldReports#exceeded}) and acts
 * on it by the call's {@link OnHoldExceeded} policy: interrupts the thread inside the method, if
 * one is, or cancels the call through the canceller its shape gave. Never releases the lock.
 * {@link #NONE} watches nothing. Thread-safe.
 */
final class HoldWatch {

	/** The watch of a call without a bound: every method does nothing. */
	static final HoldWatch NONE = new HoldWatch(null, Duration.ZERO, OnHoldExceeded.WARN, null);

	private final @Nullable AcquiredLocks held;

	private final Duration bound;

	private final OnHoldExceeded policy;

	private final @Nullable HoldBounds bounds;

	/** The thread inside the method now, or {@code null}. Guarded by {@code this}. */
	private @Nullable Thread methodThread;

	/** Cancels the call (a stage or publisher), or {@code null}. Guarded by {@code this}. */
	private @Nullable Canceller canceller;

	/** Whether the work ended (or was cancelled) and nothing is watched. Guarded by {@code this}. */
	private boolean ended;

	/** Cancels the scheduled check. Guarded by {@code this}. */
	private Runnable stopTimer = () -> {
	};

	HoldWatch(@Nullable AcquiredLocks held, Duration bound, OnHoldExceeded policy, @Nullable HoldBounds bounds) {
		this.held = held;
		this.bound = bound;
		this.policy = policy;
		this.bounds = bounds;
	}

	/** Checks the hold when the bound has passed since {@code grantedAt} on {@link System#nanoTime()}. */
	void start(long grantedAt) {
		HoldBounds scheduling = this.bounds;
		if (scheduling == null) {
			return;
		}
		Runnable stop = scheduling.scheduler().checkAt(this::passed, grantedAt + this.bound.toNanos());
		synchronized (this) {
			this.stopTimer = stop;
			if (!this.ended) {
				return;
			}
		}
		stop.run();
	}

	/** The calling thread now runs the method, until {@link #methodReturned()}. */
	void methodRunning() {
		if (this.held != null) {
			synchronized (this) {
				this.methodThread = Thread.currentThread();
			}
		}
	}

	/** No thread runs the method any more; its work may go on behind what it returned. */
	void methodReturned() {
		if (this.held != null) {
			synchronized (this) {
				this.methodThread = null;
			}
		}
	}

	/** How the call's shape cancels the call, for {@link OnHoldExceeded#CANCEL}. */
	void cancelWith(Canceller canceller) {
		if (this.held != null) {
			synchronized (this) {
				this.canceller = canceller;
			}
		}
	}

	/** The work ended or was cancelled: nothing more is watched. */
	void stop() {
		if (this.held == null) {
			return;
		}
		Runnable stop;
		synchronized (this) {
			this.ended = true;
			this.methodThread = null;
			stop = this.stopTimer;
		}
		stop.run();
	}

	private void passed() {
		AcquiredLocks call = this.held;
		HoldBounds scheduling = this.bounds;
		if (call == null || scheduling == null) {
			return;
		}
		Thread holder;
		StackTraceElement[] stack;
		Canceller cancel;
		synchronized (this) {
			if (this.ended) {
				return;
			}
			holder = this.methodThread;
			stack = (holder != null) ? holder.getStackTrace() : null;
			cancel = this.canceller;
		}
		String done = act(holder, cancel, HoldReports.exceededError(call, this.bound), scheduling);
		HoldReports.exceeded(call, scheduling, this.bound, done, holder, stack);
	}

	/** Acts by the policy; returns what becomes of the call and its lock, for the message. */
	/** How a call's shape cancels the call. */
	@FunctionalInterface
	interface Canceller {

		/**
		 * Cancels the call.
		 * @param error what the caller gets
		 * @return when the locks go, for the message, if the end of the call's work will still be
		 * seen (a coroutine's end, a method's own stage behind the caller's); {@code null} if not,
		 * and then they follow {@link AcquiredLocks#workCancelled(String)}
		 */
		@Nullable String cancel(HoldExceededException error);

	}

	private String act(@Nullable Thread holder, @Nullable Canceller cancel,
			HoldExceededException error, HoldBounds scheduling) {
		String kept = "zklock keeps the lock until the call ends, since a lock is never released while its work may "
				+ "still run; onHoldExceeded = " + this.policy + ": ";
		if (this.policy == OnHoldExceeded.CANCEL && cancel != null) {
			String seen = cancel.cancel(error);
			if (seen != null) {
				return "onHoldExceeded = CANCEL: " + seen;
			}
			Duration after = scheduling.holdAfterCancel();
			return "onHoldExceeded = CANCEL: zklock cancelled the call. Since nothing tells when cancelled work stops, "
					+ (after.isZero() ? "the lock is released at once (zklock.hold-after-cancel=0)"
							: "the lock is kept " + HoldReports.format(after)
									+ " more (zklock.hold-after-cancel), then released");
		}
		if (this.policy == OnHoldExceeded.WARN) {
			return kept + "nothing more is done";
		}
		synchronized (this) {
			if (holder != null && this.methodThread == holder) {
				holder.interrupt();
				return kept + "interrupted the holder thread"
						+ ((this.policy == OnHoldExceeded.CANCEL) ? ", the way a running method is cancelled" : "");
			}
		}
		return kept + "no thread runs the method now, so none was interrupted";
	}

}
