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
import io.zklock.annotation.HoldExceededException;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.internal.Durations;
import io.zklock.lock.HoldExceededReaction;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockState;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;

/**
 * One annotated call under its locks (or its semaphore permit), from the acquire to the
 * release: the one place that holds the state of the call, whatever its shape. The shapes
 * ({@link SynchronousInvocation}, {@link StageInvocation}, {@link ReactorSupport} with
 * {@link BodySubscriber}) only drive it. Thread-safe: every transition is a compare-and-set on
 * {@link #state}, so a caller's cancel, the end of the work, a lost lock and a hold-bound breach
 * may race from any threads.
 *
 * <h2>States</h2>
 * <pre>
 *  ACQUIRING ──granted──► GRANTED ──start──────────────────────► RUNNING
 *      │                     │  └──offer──► OFFERED ──take──────►   │
 *      │                     │                 │                    │
 *      └──abandon──► ABANDONED ◄──abandon──────┘ (released at once) │
 *                                                                   │
 *  RUNNING ──detach──► DETACHED          (Mono or suspend: caller gone, work runs on)
 *  RUNNING, DETACHED ──endWork──► DONE    (work ended by itself: release now, or at grant + holdAtLeast)
 *  RUNNING, DETACHED ──cancelWork──► CANCELLED (end no longer seen: release after zklock.hold-after-cancel)
 * </pre>
 * <ul>
 * <li>{@code ACQUIRING}: the locks are being taken, within the wait, all or nothing
 * ({@link LockAcquirer}); a wait that runs out leaves the call here, never granted.</li>
 * <li>{@code GRANTED}: every lock is held (the hold started, {@link #grantedAt()}); a
 * synchronous or stage call starts at once, a subscription offers it to its subscriber.</li>
 * <li>{@code OFFERED}: (Reactor) the grant was handed to the subscription; the body takes it, or a
 * cancel that came first, or a sink that dropped it, abandons it.</li>
 * <li>{@code ABANDONED}: the subscriber cancelled before the body took the call: the locks are
 * released at once (a grant that arrives later is released as it arrives). Final.</li>
 * <li>{@code RUNNING}: the method runs ({@link #methodRunning()} tells which thread), or the
 * stage or publisher it returned does; the caller is attached.</li>
 * <li>{@code DETACHED}: (a {@code Mono} or {@code suspend} function) the caller went away, by
 * its own cancel or by zklock's {@link OnHoldExceeded#CANCEL}; the work runs on, for nobody, to
 * its own end, which is still seen (a coroutine is cancelled through its {@code Job} first,
 * {@link #stopWork()}).</li>
 * <li>{@code CANCELLED}: the work was cancelled where its end can no longer be seen (a
 * {@code Flux}, a stage the caller cancelled): the locks are kept
 * {@code zklock.hold-after-cancel} more, then released with a WARN. Final.</li>
 * <li>{@code DONE}: the work ended by itself (returned, its stage completed, its publisher
 * completed or failed): the locks go now, or at grant plus {@link DistributedLock#holdAtLeast()}
 * on the release thread, detached from the calling thread. Final.</li>
 * </ul>
 * The locks are released once ({@link #release()}), whichever state lets them go.
 *
 * <h2>The hold bound</h2>
 * {@link DistributedLock#holdAtMost()} is timed by the engine: every lock of the call is
 * requested with {@link LockRequest#holdAtMost(Duration)} and this call as its
 * {@link LockRequest#onHoldExceeded(HoldExceededReaction) reaction}, so one engine thread
 * ({@code zklock-hold-bound}) times every bound. When the first of the call's locks passes its
 * bound, {@link #holdExceeded} runs on that thread, once per call:
 * <ul>
 * <li>in {@code RUNNING} or {@code DETACHED}, it acts by the call's {@link OnHoldExceeded}
 * policy (interrupts the thread in the method, or cancels the call through the canceller its
 * shape gave, {@link #cancelWith(Canceller)}), then writes the WARN ({@link HoldWarnings}); the
 * engine then tells the listeners of each lock;</li>
 * <li>in {@code GRANTED} or {@code OFFERED} (a bound shorter than the wait for the call's other
 * locks), it acts when the call starts, with no thread in the method yet;</li>
 * <li>in {@code DONE}, {@code CANCELLED} or {@code ABANDONED}, the hold no longer guards running
 * work (it is only kept before its release): nothing is done and the listeners are not told.</li>
 * </ul>
 * So a caller that cancels during a breach finds the call in {@code RUNNING} or {@code DETACHED}:
 * a {@code Mono}'s cancel only detaches it (its end still releases), a {@code Flux}'s cancel moves
 * it to {@code CANCELLED}, and whichever of the cancel and zklock's {@code CANCEL} comes second
 * finds the transition taken and does nothing more. A breach never releases a lock.
 */
final class LockedCall implements HoldExceededReaction {

	private static final Log logger = LogFactory.getLog(LockedCall.class);

	/** What becomes of a method's result under {@code zklock.on-lock-lost=fail}, for messages. */
	static final String RESULT_DISCARDED = "its result was discarded (zklock.on-lock-lost=fail)";

	static final int ACQUIRING = 0;

	static final int GRANTED = 1;

	static final int OFFERED = 2;

	static final int RUNNING = 3;

	static final int DETACHED = 4;

	static final int CANCELLED = 5;

	static final int DONE = 6;

	static final int ABANDONED = 7;

	private final AtomicInteger state = new AtomicInteger(ACQUIRING);

	private final String methodDescription;

	private final Duration holdAtLeast;

	private final HoldBounds bounds;

	private final OnHoldExceeded policy;

	private volatile List<LockHandle> locks = List.of();

	private volatile @Nullable PermitLease permit;

	/** When the call got everything, on {@link System#nanoTime()}. */
	private volatile long grantedAt;

	private final AtomicBoolean released = new AtomicBoolean();

	/** The thread inside the method now, or {@code null}. Guarded by {@code this}. */
	private @Nullable Thread methodThread;

	/** Cancels the call (a stage or publisher), or {@code null}. Guarded by {@code this}. */
	private @Nullable Canceller canceller;

	/** Whether the call's hold passed its bound (it is acted on once). Guarded by {@code this}. */
	private boolean breached;

	/** The bound that passed before the call started, acted on when it starts. Guarded by {@code this}. */
	private @Nullable Duration breachBeforeStart;

	/** Stops the work without unsubscribing (a coroutine's {@code Job}), once known. Guarded by {@code this}. */
	private @Nullable Runnable stopWork;

	/** Whether a stop of the work was asked for. Guarded by {@code this}. */
	private boolean stopRequested;

	/**
	 * A call about to take its locks.
	 * @param methodDescription the method, as {@code Type.method(Params)}, for messages
	 * @param holdAtLeast the shortest hold, {@link Duration#ZERO} for none
	 * @param bounds what the calls' holds share
	 * @param policy what to do when the hold passes its bound
	 */
	LockedCall(String methodDescription, Duration holdAtLeast, HoldBounds bounds, OnHoldExceeded policy) {
		this.methodDescription = methodDescription;
		this.holdAtLeast = holdAtLeast;
		this.bounds = bounds;
		this.policy = policy;
	}

	// ---- acquiring

	/**
	 * Every lock is held: {@code ACQUIRING → GRANTED}, now. A call abandoned meanwhile releases
	 * them at once.
	 * @param handles the lock handles, in acquisition order
	 */
	void granted(List<LockHandle> handles) {
		this.locks = List.copyOf(handles);
		granted();
	}

	/** The permit is held: {@code ACQUIRING → GRANTED}, as {@link #granted(List)}. */
	void granted(PermitLease lease) {
		this.permit = lease;
		granted();
	}

	private void granted() {
		this.grantedAt = System.nanoTime();
		if (!this.state.compareAndSet(ACQUIRING, GRANTED)) {
			release();
		}
	}

	/**
	 * A synchronous or stage call starts: {@code GRANTED → RUNNING}, and a breach that came
	 * before is acted on.
	 */
	void start() {
		if (this.state.compareAndSet(GRANTED, RUNNING)) {
			started();
		}
	}

	/**
	 * (Reactor) the grant is handed to the subscription: {@code GRANTED → OFFERED}.
	 * @return {@code false} if the call was abandoned (its locks are released)
	 */
	boolean offer() {
		return this.state.compareAndSet(GRANTED, OFFERED);
	}

	/**
	 * (Reactor) the body takes the call: {@code OFFERED → RUNNING}.
	 * @return {@code false} if it was abandoned first
	 */
	boolean take() {
		if (this.state.compareAndSet(OFFERED, RUNNING)) {
			started();
			return true;
		}
		return false;
	}

	/**
	 * (Reactor) the subscriber cancelled before the body took the call, or the sink dropped the
	 * grant: {@code ACQUIRING, GRANTED or OFFERED → ABANDONED}; held locks are released now (a
	 * grant still to come is released as it comes).
	 * @return the state it was in; nothing changed unless {@code ACQUIRING}, {@code GRANTED} or
	 * {@code OFFERED}
	 */
	int abandon() {
		while (true) {
			int was = this.state.get();
			if (was != ACQUIRING && was != GRANTED && was != OFFERED) {
				return was;
			}
			if (this.state.compareAndSet(was, ABANDONED)) {
				if (was != ACQUIRING) {
					release();
				}
				return was;
			}
		}
	}

	/** The call's state now, one of the constants above. */
	int state() {
		return this.state.get();
	}

	private void started() {
		Duration bound;
		synchronized (this) {
			bound = this.breachBeforeStart;
			this.breachBeforeStart = null;
		}
		if (bound != null) {
			react(bound, null, null, null);
		}
	}

	// ---- the work

	/** The calling thread now runs the method, until {@link #methodReturned()}. */
	synchronized void methodRunning() {
		this.methodThread = Thread.currentThread();
	}

	/** No thread runs the method any more; its work may go on behind what it returned. */
	synchronized void methodReturned() {
		this.methodThread = null;
	}

	/** How the call's shape cancels the call, for {@link OnHoldExceeded#CANCEL}. */
	synchronized void cancelWith(Canceller cancel) {
		this.canceller = cancel;
	}

	/**
	 * (Mono or suspend) the caller went away and the work runs on to its end:
	 * {@code RUNNING → DETACHED}.
	 * @return whether the call was running
	 */
	boolean detach() {
		return this.state.compareAndSet(RUNNING, DETACHED);
	}

	/**
	 * The work ended by itself: {@code RUNNING or DETACHED → DONE}. The locks are not released
	 * yet: see {@link #releaseAsDue()}.
	 * @return the state it was in ({@code CANCELLED}, {@code DONE} or another final state if
	 * the end comes after it, and nothing changed)
	 */
	int endWork() {
		while (true) {
			int was = this.state.get();
			if ((was != RUNNING && was != DETACHED) || this.state.compareAndSet(was, DONE)) {
				return was;
			}
		}
	}

	/**
	 * The call's work is done ({@link #endWork()}) and its locks go as due ({@link #releaseAsDue()}).
	 * Once; later calls do nothing, and so does a call after {@link #cancelWork(String)}. Never
	 * throws.
	 */
	void workDone() {
		int was = endWork();
		if (was == RUNNING || was == DETACHED) {
			releaseAsDue();
		}
	}

	/**
	 * The work was cancelled where its end cannot be seen (a cancelled stage completes at once, a
	 * cancelled publisher signals nothing more): {@code RUNNING or DETACHED → CANCELLED}. The locks
	 * are kept {@code zklock.hold-after-cancel} more, then released with a WARN and an event
	 * ({@link HoldWarnings#releasedAfterCancel}). Never releases on the calling thread. Never throws.
	 * @param how who cancelled it, for the message, such as {@code "its subscriber cancelled it"}
	 * @return the state it was in; nothing changed unless {@code RUNNING} or {@code DETACHED}
	 */
	int cancelWork(String how) {
		int was;
		do {
			was = this.state.get();
			if (was != RUNNING && was != DETACHED) {
				return was;
			}
		}
		while (!this.state.compareAndSet(was, CANCELLED));
		long cancelledAt = System.nanoTime();
		this.bounds.scheduler().releaseLater(() -> {
			HoldWarnings.releasedAfterCancel(this, this.bounds, cancelledAt, how);
			releaseAsDue();
		}, cancelledAt + SaturatedNanos.of(this.bounds.holdAfterCancel()));
		return was;
	}

	/**
	 * Releases now, or, if the shortest hold is not over yet, detaches the thread-owned locks
	 * from the calling thread now (it no longer holds them) and releases everything on the
	 * release thread when the hold is over.
	 */
	void releaseAsDue() {
		long due = this.grantedAt + SaturatedNanos.of(this.holdAtLeast);
		if (this.holdAtLeast.isZero() || due - System.nanoTime() <= 0) {
			release();
			return;
		}
		this.locks.forEach(LockHandle::detachFromThread);
		this.bounds.scheduler().releaseAt(this::release, due);
	}

	/**
	 * Tells how to stop the work without unsubscribing (a suspend function's coroutine), once it
	 * can be reached; stops it at once if that was asked already. Later calls do nothing.
	 * @param stop stops the work, must not throw
	 */
	void stopWith(Runnable stop) {
		boolean now;
		synchronized (this) {
			if (this.stopWork != null) {
				return;
			}
			this.stopWork = stop;
			now = this.stopRequested;
		}
		if (now) {
			stop.run();
		}
	}

	/** Whether the work can be stopped without unsubscribing (its coroutine has been reached). */
	synchronized boolean canStopWork() {
		return this.stopWork != null;
	}

	/** Stops the work, now or as soon as it can be reached. Once; later calls do nothing. */
	void stopWork() {
		Runnable action;
		synchronized (this) {
			if (this.stopRequested) {
				return;
			}
			this.stopRequested = true;
			action = this.stopWork;
		}
		if (action != null) {
			action.run();
		}
	}

	// ---- the hold bound

	/** The engine's {@code zklock-hold-bound} thread: a lock of this call passed its bound. */
	@Override
	public boolean holdExceeded(LockHandle handle, Duration heldFor, Duration bound) {
		Thread holder;
		StackTraceElement[] stack;
		Canceller cancel;
		synchronized (this) {
			if (this.breached) {
				// another lock of this call: acted on once, each lock's listeners told
				return true;
			}
			int now = this.state.get();
			if (now == DONE || now == CANCELLED || now == ABANDONED || now == ACQUIRING) {
				return false;
			}
			this.breached = true;
			if (now == GRANTED || now == OFFERED) {
				this.breachBeforeStart = bound;
				return true;
			}
			holder = this.methodThread;
			stack = (holder != null) ? holder.getStackTrace() : null;
			cancel = this.canceller;
		}
		react(bound, holder, stack, cancel);
		return true;
	}

	private void react(Duration bound, @Nullable Thread holder, StackTraceElement @Nullable [] stack,
			@Nullable Canceller cancel) {
		String done = act(holder, cancel, HoldWarnings.exceededError(this, bound));
		HoldWarnings.exceeded(this, bound, done, holder, stack);
	}

	/** Acts by the policy; returns what becomes of the call and its lock, for the message. */
	private String act(@Nullable Thread holder, @Nullable Canceller cancel, HoldExceededException error) {
		String kept = "zklock keeps the lock until the call ends, since a lock is never released while its work may "
				+ "still run; onHoldExceeded = " + this.policy + ": ";
		if (this.policy == OnHoldExceeded.CANCEL && cancel != null) {
			String seen = cancel.cancel(error);
			if (seen != null) {
				return "onHoldExceeded = CANCEL: " + seen;
			}
			Duration after = this.bounds.holdAfterCancel();
			return "onHoldExceeded = CANCEL: zklock cancelled the call. Since nothing tells when cancelled work stops, "
					+ (after.isZero() ? "the lock is released at once (zklock.hold-after-cancel=0)"
							: "the lock is kept " + Durations.format(after)
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

	// ---- what the call holds

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
		PermitLease lease = this.permit;
		if (lease != null) {
			unregister.add(lease.onLost((held) -> once.run()));
		}
		return () -> unregister.forEach(Runnable::run);
	}

	/** Releases everything now, once, in reverse order of acquisition; later calls do nothing. Never throws. */
	void release() {
		if (!this.released.compareAndSet(false, true)) {
			return;
		}
		PermitLease lease = this.permit;
		if (lease != null) {
			warnIf(lease.release(), "a permit of semaphore '" + lease.path() + "'");
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

	/** How a call's shape cancels the call, for {@link OnHoldExceeded#CANCEL}. */
	@FunctionalInterface
	interface Canceller {

		/**
		 * Cancels the call.
		 * @param error what the caller gets
		 * @return when the locks go, for the message, if the end of the call's work will still be
		 * seen (a coroutine's end, a method's own stage behind the caller's); {@code null} if not,
		 * and then they follow {@link LockedCall#cancelWork(String)}
		 */
		@Nullable String cancel(HoldExceededException error);

	}

}
