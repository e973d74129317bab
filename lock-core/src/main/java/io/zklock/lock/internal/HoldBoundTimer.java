package io.zklock.lock.internal;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.zklock.lock.HoldExceededReaction;
import io.zklock.lock.LockRequest;
import org.jspecify.annotations.Nullable;

/**
 * Times the bounds that acquires set with {@link LockRequest#holdAtMost(Duration)}: one check
 * per bounded handle, due its bound after its grant, on one daemon thread of the engine
 * ({@code zklock-hold-bound}), which exists only while a check is due (it ends 10 s after the
 * last), the only thread that times hold bounds, the annotation's {@code holdAtMost} among them.
 * A check that finds its handle still unreleased reports the breach ({@link HoldBreach}), or hands
 * it to the request's {@link HoldExceededReaction}; a handle without a bound is checked against the
 * engine's leak-detection threshold, if set, and reported once past it. Nothing here ever releases
 * a lock. Releasing the handle cancels its check; a check reaches its handle only weakly, so that a
 * handle dropped unreleased is collected and reported at once ({@link LeakWatch}), not only once
 * its check is due. Thread-safe.
 */
final class HoldBoundTimer implements AutoCloseable {

	private final HoldBreach breach;

	private final ScheduledThreadPoolExecutor thread;

	HoldBoundTimer(LockListeners listeners) {
		this.breach = new HoldBreach(listeners);
		this.thread = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread timer = new Thread(runnable, "zklock-hold-bound");
			timer.setDaemon(true);
			return timer;
		});
		this.thread.setKeepAliveTime(10, TimeUnit.SECONDS);
		this.thread.allowCoreThreadTimeOut(true);
		this.thread.setRemoveOnCancelPolicy(true);
		this.thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
	}

	/**
	 * Watches a handle just granted against its request's bound, if it has one, else against the
	 * engine's leak-detection threshold, if any.
	 * @param handle the handle, a new acquire's or a reentrant one's
	 * @param hold the hold it is an entry of
	 * @param request the request it was granted for
	 * @param leakThreshold how long a hold without a bound may last before it is reported, or
	 * {@code null}
	 * @return {@code handle}
	 */
	HoldHandle watch(HoldHandle handle, LockHold hold, LockRequest request, @Nullable Duration leakThreshold) {
		Duration bound = request.maxHold().orElse(null);
		Duration due = (bound != null) ? bound : leakThreshold;
		if (due == null) {
			return handle;
		}
		// the check waits on this timer's queue, which the engine keeps: it must not keep the
		// handle reachable, or a handle dropped unreleased is reported only once it is due
		WeakReference<HoldHandle> weakHandle = new WeakReference<>(handle);
		Runnable report;
		if (bound != null) {
			HoldExceededReaction reaction = request.holdExceededReaction().orElse(null);
			report = () -> this.breach.report(weakHandle.get(), hold, bound, reaction);
		}
		else {
			report = () -> this.breach.reportLongHold(weakHandle.get(), hold, due);
		}
		ScheduledFuture<?> check;
		try {
			check = this.thread.schedule(report, nanos(due), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// the engine is closed: no bound is timed any more
			return handle;
		}
		handle.onRelease(() -> check.cancel(false));
		return handle;
	}

	/** Stops timing: checks still due never run. Held locks stay as they are. */
	@Override
	public void close() {
		this.thread.shutdownNow();
	}

	private static long nanos(Duration bound) {
		try {
			return bound.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

}
