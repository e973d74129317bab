package io.zklock.annotation;

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

import org.springframework.context.SmartLifecycle;

/**
 * Releases the locks of {@link DistributedLock#holdAtLeast()} calls whose work ended before
 * their shortest hold: each at its due time, in the background, on one daemon thread
 * ({@code zklock-release-N}) that is started on the first delayed release and ends after 10
 * seconds without one, so an application that never delays a release has no such thread.
 *
 * <p>
 * When its application context stops or closes ({@link #stop()}, {@link #close()}), the
 * locks still waiting are released at once, on the closing thread, while the ZooKeeper client
 * is still open; until it is started again, a call whose work ends releases its locks at
 * once. Thread-safe.
 */
public final class LockReleaseScheduler implements SmartLifecycle, AutoCloseable {

	/** Stops after the lifecycle beans of the default phase, such as task schedulers and web servers. */
	private static final int PHASE = 0;

	private static final Duration IDLE = Duration.ofSeconds(10);

	private static final AtomicInteger THREADS = new AtomicInteger();

	private final Object monitor = new Object();

	/** The delayed releases not run yet. Guarded by {@link #monitor}. */
	private final Set<DelayedRelease> pending = new HashSet<>();

	/** Created on the first delayed release. Guarded by {@link #monitor}. */
	private @Nullable ScheduledThreadPoolExecutor executor;

	/** Whether releases may be delayed; false between a stop and the next start. Guarded by {@link #monitor}. */
	private boolean accepting = true;

	private volatile boolean running;

	/**
	 * Releases {@code held} at {@code dueNanos} on {@link System#nanoTime()}; at once if that
	 * time has come or if this scheduler is stopped.
	 */
	void releaseAt(AcquiredLocks held, long dueNanos) {
		long delay = dueNanos - System.nanoTime();
		synchronized (this.monitor) {
			if (this.accepting && delay > 0) {
				DelayedRelease release = new DelayedRelease(held);
				this.pending.add(release);
				release.future = executor().schedule(release, delay, TimeUnit.NANOSECONDS);
				return;
			}
		}
		held.release();
	}

	/** How many delayed releases are waiting. */
	int pendingCount() {
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
	 * Releases every lock still waiting for its due time, now, on the calling thread; until
	 * the next {@link #start()}, later releases happen at once.
	 */
	@Override
	public void stop() {
		this.running = false;
		List<DelayedRelease> due;
		synchronized (this.monitor) {
			this.accepting = false;
			due = new ArrayList<>(this.pending);
			this.pending.clear();
		}
		for (DelayedRelease release : due) {
			ScheduledFuture<?> future = release.future;
			if (future != null) {
				future.cancel(false);
			}
			release.held.release();
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

	/** One call's locks waiting for their due time. */
	private final class DelayedRelease implements Runnable {

		private final AcquiredLocks held;

		private volatile @Nullable ScheduledFuture<?> future;

		DelayedRelease(AcquiredLocks held) {
			this.held = held;
		}

		@Override
		public void run() {
			synchronized (LockReleaseScheduler.this.monitor) {
				if (!LockReleaseScheduler.this.pending.remove(this)) {
					return;
				}
			}
			this.held.release();
		}

	}

}
