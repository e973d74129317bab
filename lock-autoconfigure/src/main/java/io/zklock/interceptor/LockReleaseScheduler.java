package io.zklock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;

import org.springframework.context.SmartLifecycle;

/**
 * Runs the delayed releases of annotated calls' locks on one daemon thread
 * ({@code zklock-release-N}) that is started on the first such release and ends after 10
 * seconds without one, so an application that never delays a release has no such thread:
 * <ul>
 * <li>the release of {@link DistributedLock#holdAtLeast()} calls whose work ended before their
 * shortest hold, at its due time;</li>
 * <li>the release of calls whose work was cancelled where its end cannot be seen, when
 * {@code zklock.hold-after-cancel} has passed.</li>
 * </ul>
 * It times no bound: {@link DistributedLock#holdAtMost()} is timed by the engine's
 * {@code zklock-hold-bound} thread ({@link LockedCall}). When its application context stops or
 * closes ({@link #stop()}, {@link #close()}), the releases still waiting run at once, on the
 * closing thread, while the ZooKeeper client is still open; until it is started again, a
 * release asked for runs at once. Thread-safe.
 */
public final class LockReleaseScheduler implements SmartLifecycle, AutoCloseable {

	/** Stops after the lifecycle beans of the default phase, such as task schedulers and web servers. */
	private static final int PHASE = 0;

	private static final Duration IDLE = Duration.ofSeconds(10);

	private static final AtomicInteger THREADS = new AtomicInteger();

	private final Object monitor = new Object();

	/** The tasks not run yet. Guarded by {@link #monitor}. */
	private final Set<DelayedTask> pending = new HashSet<>();

	/** Created on the first delayed release. Guarded by {@link #monitor}. */
	private @Nullable ScheduledThreadPoolExecutor executor;

	/** Whether releases may be delayed; false between a stop and the next start. Guarded by {@link #monitor}. */
	private boolean accepting = true;

	private volatile boolean running;

	/**
	 * Runs a release at {@code dueNanos} on {@link System#nanoTime()}; at once, on the calling
	 * thread, if that time has come or if this scheduler is stopped; at once on the stopping
	 * thread if it is stopped before then.
	 * @param release the release, which must not throw
	 * @return cancels the release if it has not run yet
	 */
	Runnable releaseAt(Runnable release, long dueNanos) {
		Runnable cancel = schedule(release, dueNanos, false);
		if (cancel == null) {
			release.run();
			return () -> {
			};
		}
		return cancel;
	}

	/**
	 * Runs a release at {@code dueNanos} on {@link System#nanoTime()} on the scheduler's
	 * thread, also when that time has come (never on the calling thread, which may be one that
	 * must not block); at once on the calling thread only if this scheduler is stopped, and on
	 * the stopping thread if it is stopped before then.
	 * @param release the release, which must not throw
	 */
	void releaseLater(Runnable release, long dueNanos) {
		if (schedule(release, dueNanos, true) == null) {
			release.run();
		}
	}

	/**
	 * Schedules a release.
	 * @param whenDue whether a release that is due already is scheduled to run at once on the
	 * scheduler's thread, rather than not scheduled
	 * @return cancels the release, or {@code null} if it was not scheduled (stopped, or due
	 * already and not {@code whenDue})
	 */
	private @Nullable Runnable schedule(Runnable action, long dueNanos, boolean whenDue) {
		long delay = Math.max(0, dueNanos - System.nanoTime());
		synchronized (this.monitor) {
			if (!this.accepting || (delay == 0 && !whenDue)) {
				return null;
			}
			DelayedTask task = new DelayedTask(action);
			this.pending.add(task);
			task.future = executor().schedule(task, delay, TimeUnit.NANOSECONDS);
			return task::cancel;
		}
	}

	/**
	 * How many releases are waiting.
	 * @return the count
	 */
	public int pendingCount() {
		synchronized (this.monitor) {
			return this.pending.size();
		}
	}

	private ScheduledThreadPoolExecutor executor() {
		ScheduledThreadPoolExecutor current = this.executor;
		if (current == null || current.isShutdown()) {
			current = new ScheduledThreadPoolExecutor(1, threadFactory());
			current.setKeepAliveTime(IDLE.toMillis(), TimeUnit.MILLISECONDS);
			current.allowCoreThreadTimeOut(true);
			current.setRemoveOnCancelPolicy(true);
			this.executor = current;
		}
		return current;
	}

	private static ThreadFactory threadFactory() {
		return (runnable) -> {
			Thread thread = new Thread(runnable, "zklock-release-" + THREADS.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/** Accepts delayed releases again after a {@link #stop()}. */
	@Override
	public void start() {
		synchronized (this.monitor) {
			this.accepting = true;
		}
		this.running = true;
	}

	/**
	 * Releases every lock still waiting for its due time, now, on the calling thread; until the
	 * next {@link #start()}, later releases happen at once.
	 */
	@Override
	public void stop() {
		this.running = false;
		List<DelayedTask> due;
		synchronized (this.monitor) {
			this.accepting = false;
			due = new ArrayList<>(this.pending);
			this.pending.clear();
		}
		for (DelayedTask task : due) {
			ScheduledFuture<?> future = task.future;
			if (future != null) {
				future.cancel(false);
			}
			task.action.run();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Releases every lock still waiting, now, and ends the release thread; later releases
	 * happen at once.
	 */
	@Override
	public void close() {
		stop();
		ScheduledThreadPoolExecutor current;
		synchronized (this.monitor) {
			current = this.executor;
			this.executor = null;
		}
		if (current != null) {
			current.shutdownNow();
		}
	}

	/** One release waiting for its due time. */
	private final class DelayedTask implements Runnable {

		private final Runnable action;

		private volatile @Nullable ScheduledFuture<?> future;

		DelayedTask(Runnable action) {
			this.action = action;
		}

		@Override
		public void run() {
			synchronized (LockReleaseScheduler.this.monitor) {
				if (!LockReleaseScheduler.this.pending.remove(this)) {
					return;
				}
			}
			this.action.run();
		}

		void cancel() {
			synchronized (LockReleaseScheduler.this.monitor) {
				if (!LockReleaseScheduler.this.pending.remove(this)) {
					return;
				}
			}
			ScheduledFuture<?> scheduled = this.future;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
		}

	}

}
