package io.zklock.leadership.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local lease of one election's session, counted as Chubby's clients count theirs (Burrows,
 * OSDI 2006 §2.8): from the send of the last request that the server answered. Every third of the
 * negotiated session timeout T it sends an {@code exists} of the ZooKeeper root straight on the
 * ZooKeeper handle (no Curator retry, which could send it again later), and for a reply records the
 * request's send time on the monotonic clock and the session it was sent on; the lease then holds
 * until that time + f × T. The server cannot end the session before that (docs/leadership-protocol.md,
 * "The lease"). Renewals run only while the election wants them (it has candidacies). When the lease
 * runs out a timer tells the election; a renewal tells it too, so terms in jeopardy can resume.
 * Thread-safe.
 */
final class SessionLease {

	private static final Logger logger = LoggerFactory.getLogger(SessionLease.class);

	/** The renewal period before the session timeout is known. */
	private static final long FIRST_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final CuratorFramework client;

	private final double factor;

	private final ScheduledExecutorService timer;

	private final BooleanSupplier wanted;

	private final Runnable renewed;

	private final Runnable expired;

	private final LongSupplier clock;

	private final AtomicReference<@Nullable Grant> grant = new AtomicReference<>();

	/** The send time of the renewal under way, or {@code null}. */
	private final AtomicReference<@Nullable Long> inFlight = new AtomicReference<>();

	/** Guarded by this. */
	private @Nullable ScheduledFuture<?> expiryCheck;

	/** Guarded by this. */
	private @Nullable ScheduledFuture<?> nextRenewal;

	private volatile boolean stopped;

	/**
	 * @param client the client whose session to follow
	 * @param factor f, greater than 0 and less than 1
	 * @param timer runs renewals and expiry checks; never blocked
	 * @param wanted whether renewals are wanted now
	 * @param renewed told (on the timer) after each renewal that moved the lease
	 * @param expired told (on the timer) when the lease ran out
	 * @param clock the monotonic clock, {@link System#nanoTime()} but in tests
	 */
	SessionLease(CuratorFramework client, double factor, ScheduledExecutorService timer, BooleanSupplier wanted,
			Runnable renewed, Runnable expired, LongSupplier clock) {
		this.client = client;
		this.factor = factor;
		this.timer = timer;
		this.wanted = wanted;
		this.renewed = renewed;
		this.expired = expired;
		this.clock = clock;
	}

	/** Starts the renewals: one now, then one every third of the session timeout. */
	void start() {
		scheduleRenewal(0);
	}

	void stop() {
		this.stopped = true;
		synchronized (this) {
			cancel(this.nextRenewal);
			cancel(this.expiryCheck);
		}
	}

	/**
	 * Whether the lease holds now for the session: a renewal sent on that session was answered less
	 * than f × T ago, counted from its send.
	 */
	boolean isValid(long sessionId) {
		Grant current = this.grant.get();
		return current != null && sessionId != 0 && current.sessionId == sessionId
				&& current.endNanos - this.clock.getAsLong() > 0;
	}

	/** The session of the lease, or 0 if none. */
	long sessionId() {
		Grant current = this.grant.get();
		return (current != null) ? current.sessionId : 0;
	}

	/** How long the lease holds from now, if it does. */
	Optional<Duration> remaining() {
		Grant current = this.grant.get();
		if (current == null) {
			return Optional.empty();
		}
		long left = current.endNanos - this.clock.getAsLong();
		return (left > 0) ? Optional.of(Duration.ofNanos(left)) : Optional.empty();
	}

	/**
	 * Sends a renewal now, unless one sent less than a third of the session timeout ago is still
	 * under way (a server that does not answer gets no flood).
	 */
	void renewNow() {
		try {
			this.timer.execute(() -> send(true));
		}
		catch (RejectedExecutionException ex) {
			// stopped
		}
	}

	private void scheduleRenewal(long delayNanos) {
		synchronized (this) {
			if (this.stopped) {
				return;
			}
			try {
				this.nextRenewal = this.timer.schedule(this::tick, delayNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// stopped
			}
		}
	}

	private void tick() {
		long period = FIRST_PERIOD_NANOS;
		try {
			period = send(false);
		}
		finally {
			scheduleRenewal(period);
		}
	}

	/**
	 * Sends one renewal if wanted and connected.
	 * @param onlyIfIdle whether to skip it while a recent renewal is under way
	 * @return the period until the next regular renewal: a third of the session timeout
	 */
	private long send(boolean onlyIfIdle) {
		if (this.stopped || !this.client.getZookeeperClient().isConnected()) {
			return period(0);
		}
		ZooKeeper zooKeeper;
		try {
			zooKeeper = this.client.getZookeeperClient().getZooKeeper();
		}
		catch (Exception ex) {
			return period(0);
		}
		long sessionId = zooKeeper.getSessionId();
		int timeoutMs = zooKeeper.getSessionTimeout();
		if (sessionId == 0 || timeoutMs <= 0 || !this.wanted.getAsBoolean()) {
			return period(timeoutMs);
		}
		long sent = this.clock.getAsLong();
		Long under = this.inFlight.get();
		if (onlyIfIdle && under != null && sent - under < period(timeoutMs)) {
			return period(timeoutMs);
		}
		this.inFlight.set(sent);
		try {
			zooKeeper.exists("/", false, (rc, path, ctx, stat) -> answered(rc, sessionId, sent, timeoutMs), null);
		}
		catch (RuntimeException ex) {
			this.inFlight.compareAndSet(sent, null);
			logger.debug("Could not send the leadership lease's renewal", ex);
		}
		return period(timeoutMs);
	}

	private static long period(int timeoutMs) {
		return (timeoutMs > 0) ? TimeUnit.MILLISECONDS.toNanos(timeoutMs) / 3 : FIRST_PERIOD_NANOS;
	}

	/**
	 * A renewal's reply, on ZooKeeper's event thread. Any reply of the server counts (it heard the
	 * request); the client's own errors (connection loss, an expired session) do not.
	 */
	private void answered(int rc, long sessionId, long sent, int timeoutMs) {
		this.inFlight.compareAndSet(sent, null);
		KeeperException.Code code = KeeperException.Code.get(rc);
		if (code != KeeperException.Code.OK && code != KeeperException.Code.NONODE
				&& code != KeeperException.Code.NOAUTH) {
			return;
		}
		long end = sent + (long) (TimeUnit.MILLISECONDS.toNanos(timeoutMs) * this.factor);
		Grant next = new Grant(sessionId, end);
		Grant now = this.grant.accumulateAndGet(next, (old, offered) -> (old != null
				&& old.sessionId == offered.sessionId && old.endNanos - offered.endNanos >= 0) ? old : offered);
		if (now == next) {
			scheduleExpiryCheck(next);
			try {
				this.timer.execute(this.renewed);
			}
			catch (RejectedExecutionException ex) {
				// stopped
			}
		}
	}

	private void scheduleExpiryCheck(Grant checked) {
		synchronized (this) {
			if (this.stopped) {
				return;
			}
			cancel(this.expiryCheck);
			long delay = Math.max(0, checked.endNanos - this.clock.getAsLong()) + TimeUnit.MILLISECONDS.toNanos(1);
			try {
				this.expiryCheck = this.timer.schedule(() -> {
					if (this.grant.get() == checked && !isValid(checked.sessionId)) {
						logger.debug("The leadership lease of session 0x{} ran out", Long.toHexString(checked.sessionId));
						this.expired.run();
						renewNow();
					}
				}, delay, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// stopped
			}
		}
	}

	private static void cancel(@Nullable ScheduledFuture<?> future) {
		if (future != null) {
			future.cancel(false);
		}
	}

	/** The lease as the last answered renewal set it. */
	private record Grant(long sessionId, long endNanos) {
	}

}
