package io.zklock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.interceptor.LockReleaseScheduler;
import io.zklock.lock.LockEngine;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * zklock's part of a graceful shutdown. When the application context stops, it first makes the
 * {@link LockEngine} grant no new lock (a call then fails at once with a
 * {@link io.zklock.lock.LockAcquisitionException} saying that the application is shutting
 * down), releases at once the locks that {@code holdAtLeast} keeps after their work ended (the
 * session's end would take them a moment later anyway), then waits, at most
 * {@code spring.lifecycle.timeout-per-shutdown-phase}, until the locks held by running work are
 * released as that work returns. It does not wait for a leaked lock (every handle of it became
 * unreachable without being released, {@link LockEngine#getLeakedLocks()}): no code can release
 * it, so waiting could only run out; the engine releases it when the context closes it. The Curator
 * client closes after
 * every lifecycle phase, when the context destroys its beans: closing ends the session, so a lock
 * node still left then (work that outlived the wait, a handle never released) is deleted at
 * once, not a session timeout later.
 * <p>
 * Phase {@value #PHASE}, below the web server's graceful shutdown
 * ({@code WebServerGracefulShutdownLifecycle}, {@code SmartLifecycle.DEFAULT_PHASE - 1024}):
 * Spring stops higher phases first, so the requests the web server drains, which may still need
 * a lock, get one, and granting stops only when no request can come in any more; above the web
 * server's own stop ({@code DEFAULT_PHASE - 2048}) and Spring Integration's leader initiators
 * and task executors, which stop before (higher phases), so that their last work is finished too.
 */
final class LockGrantingLifecycle implements SmartLifecycle, DisposableBean {

	/** Below the web server's graceful shutdown, above the web server's stop. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;

	/** What a refused acquire says after the lock path. */
	static final String REASON = "the application is shutting down (zklock grants no new lock once the "
			+ "application context stops; locks already held are released as their work returns)";

	private static final Log logger = LogFactory.getLog(LockGrantingLifecycle.class);

	private final LockEngine engine;

	private final Duration timeout;

	private final @Nullable LockReleaseScheduler delayedReleases;

	private final Object released = new Object();

	private volatile boolean running;

	/** Set when the context destroys this bean: a wait still going on ends. */
	private volatile boolean destroyed;

	/**
	 * Creates the lifecycle.
	 * @param engine the engine whose granting it stops
	 * @param timeout the longest wait for held locks, Spring's timeout per shutdown phase
	 * @param delayedReleases the releases {@code holdAtLeast} delays, if the annotation is used
	 */
	LockGrantingLifecycle(LockEngine engine, Duration timeout,
			@Nullable LockReleaseScheduler delayedReleases) {
		this.engine = engine;
		this.timeout = timeout;
		this.delayedReleases = delayedReleases;
		engine.addListener(new LockListener() {

			@Override
			public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
				wake();
			}

			@Override
			public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
				wake();
			}

			@Override
			public void onLeaked(LockTarget lock, long fencingToken, Duration heldFor) {
				wake();
			}

		});
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		stopGranting();
		awaitReleases();
		this.running = false;
	}

	@Override
	public void stop(Runnable callback) {
		stopGranting();
		if (awaited().isEmpty()) {
			this.running = false;
			callback.run();
			return;
		}
		Thread waiter = new Thread(() -> {
			try {
				awaitReleases();
			}
			finally {
				this.running = false;
				callback.run();
			}
		}, "zklock-shutdown");
		waiter.setDaemon(true);
		waiter.start();
	}

	/** Ends a wait that outlived Spring's shutdown phase: the context is destroying its beans. */
	@Override
	public void destroy() {
		this.destroyed = true;
		wake();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void stopGranting() {
		this.engine.stopGranting(REASON);
		if (this.delayedReleases != null && this.delayedReleases.isRunning()) {
			this.delayedReleases.stop();
		}
		List<HeldLock> leaked = this.engine.getLeakedLocks();
		if (!leaked.isEmpty()) {
			logger.warn("zklock stopped granting locks; not waiting for " + describe(leaked) + " whose handles "
					+ "became unreachable without being released (leaked): no code can release them, so the lock "
					+ "engine releases them when it closes");
		}
		List<HeldLock> held = awaited();
		if (held.isEmpty()) {
			logger.debug("zklock stopped granting locks; none is held that running work can release");
		}
		else {
			logger.info("zklock stopped granting locks; waiting up to " + this.timeout.toMillis() + " ms for "
					+ describe(held) + " to be released as running work returns");
		}
	}

	/**
	 * The held locks that running work can still release: the engine's held locks but the leaked
	 * ones, whose handles nothing can release any more.
	 */
	private List<HeldLock> awaited() {
		Set<String> leaked = this.engine.getLeakedLocks().stream().map(HeldLock::nodePath).collect(Collectors.toSet());
		return this.engine.getHeldLocks().stream().filter((lock) -> !leaked.contains(lock.nodePath())).toList();
	}

	private void awaitReleases() {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		synchronized (this.released) {
			while (!this.destroyed && !awaited().isEmpty()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					logger.warn("zklock's shutdown wait (spring.lifecycle.timeout-per-shutdown-phase=" + this.timeout
							+ ") ran out with " + describe(awaited()) + " still held: their "
							+ "lock nodes go when the ZooKeeper session closes, while the work under them may "
							+ "still run");
					return;
				}
				try {
					this.released.wait(Math.max(1, left / 1_000_000), 0);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private void wake() {
		synchronized (this.released) {
			this.released.notifyAll();
		}
	}

	private static String describe(List<HeldLock> held) {
		return held.size() + " held lock(s) ("
				+ held.stream()
					.map((lock) -> lock.lockPath() + " by " + lock.holderThread())
					.collect(Collectors.joining(", "))
				+ ")";
	}

}
