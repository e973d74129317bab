package io.zklock.lock.internal;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.zklock.lock.HoldExceededReaction;
import io.zklock.lock.LockRequest;

/**
 * Times the bounds that acquires set with {@link LockRequest#holdAtMost(Duration)}: one check
 * per bounded handle, due its bound after its grant, on one daemon thread of the engine
 * ({@code zklock-hold-bound}), which exists only while a check is due (it ends 10 s after the
 * last), the only thread that times hold bounds, the annotation's {@code holdAtMost} among them.
 * A check that finds its handle still unreleased reports the breach ({@link HoldBreach}), or hands
 * it to the request's {@link HoldExceededReaction}; nothing here ever releases a lock. Releasing the handle cancels its check. Thread-safe.
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
	 * Watches a handle just granted against its request's bound, if it has one.
	 * @param handle the handle, a new acquire's or a reentrant one's
	 * @param hold the hold it is an entry of
	 * @param request the request it was granted for
	 * @return {@code handle}
	 */
	HoldHandle watch(HoldHandle handle, LockHold hold, LockRequest request) {
		Duration bound = request.maxHold().orElse(null);
		if (bound == null) {
			return handle;
		}
		HoldExceededReaction reaction = request.holdExceededReaction().orElse(null);
		ScheduledFuture<?> check;
		try {
			check = this.thread.schedule(() -> this.breach.report(handle, hold, bound, reaction), nanos(bound),
					TimeUnit.NANOSECONDS);
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
