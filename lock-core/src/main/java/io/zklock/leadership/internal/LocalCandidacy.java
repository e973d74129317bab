package io.zklock.leadership.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.zklock.internal.Durations;
import io.zklock.leadership.Candidacy;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.leadership.internal.HeldTerm.Phase;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockState;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One candidacy: a thread of its own ({@code zklock-candidate-<role>-N}) queues an exclusive,
 * call-owned acquire of the role's lock path that waits without a limit, serves each term it is
 * granted until the term ends, and queues again, until the candidacy steps down or leaves. The
 * term's phase moves only here, under this object's monitor, by {@link #reconcile()}: from the
 * engine's state of the hold, the connection, the lease and the confirmation of the node
 * (docs/leadership-protocol.md); connection events, the engine's loss callbacks, lease renewals and
 * expiries and the leader watch only wake it. Listener calls are queued under the monitor, in order,
 * and run on the election's listener executor, never here. Thread-safe.
 */
final class LocalCandidacy implements Candidacy, HeldTerm.Sources {

	private static final Logger logger = LoggerFactory.getLogger(LocalCandidacy.class);

	private static final AtomicInteger threads = new AtomicInteger();

	private static final long FIRST_BACKOFF_MS = 100;

	private static final long LAST_BACKOFF_MS = 5_000;

	/** How long a confirmation that failed (not connected, a slow server) waits before it is tried again. */
	private static final long CONFIRM_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** How long leaving waits for the candidacy's thread to end. */
	private static final Duration THREAD_END = Duration.ofSeconds(10);

	private final ElectionContext context;

	private final String role;

	private final LockRequest request;

	private final ListenerQueue queue;

	private final LeaderWatch watch;

	private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

	private final Consumer<LocalCandidacy> onLeft;

	private final Thread thread;

	private final AtomicBoolean reconcileQueued = new AtomicBoolean();

	private final AtomicBoolean cleanedUp = new AtomicBoolean();

	/** Guarded by this. */
	private boolean left;

	/** Guarded by this. */
	private boolean stoodDown;

	/** Whether the thread is in the engine's acquire (the only place it may be interrupted). Guarded by this. */
	private boolean acquiring;

	/** Guarded by this. */
	private boolean confirming;

	/** No confirmation is tried again before this instant ({@link System#nanoTime()}). Guarded by this. */
	private long confirmAgainAt;

	/** Guarded by this. */
	private @Nullable HeldTerm term;

	/** Guarded by this. */
	private @Nullable Candidate knownLeader;

	/**
	 * @param listeners the listeners registered so far (the election's, and the one given to join)
	 * @param onLeft told once the candidacy left, so the election forgets it
	 */
	LocalCandidacy(ElectionContext context, String role, List<LeadershipListener> listeners,
			Consumer<LocalCandidacy> onLeft) {
		this.context = context;
		this.role = role;
		this.request = LockRequest.of(role, LockMode.EXCLUSIVE).named(role);
		this.queue = new ListenerQueue(context.listenerExecutor(), role);
		this.watch = new LeaderWatch(context, role, this::observed);
		this.listeners.addAll(listeners);
		this.onLeft = onLeft;
		this.thread = new Thread(this::campaign, "zklock-candidate-" + role + "-" + threads.incrementAndGet());
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
		this.watch.refresh();
	}

	// --- the candidacy's thread ---

	private void campaign() {
		long backoff = FIRST_BACKOFF_MS;
		while (true) {
			synchronized (this) {
				while (this.stoodDown && !this.left) {
					waitQuietly(0);
				}
				if (this.left) {
					return;
				}
				this.acquiring = true;
			}
			long epochBefore = this.context.epoch();
			long sessionBefore = this.context.sessionId();
			LockHandle hold = null;
			RuntimeException failure = null;
			try {
				hold = this.context.engine().acquire(this.request).orElse(null);
			}
			catch (RuntimeException ex) {
				failure = ex;
			}
			boolean drop;
			synchronized (this) {
				this.acquiring = false;
				// an interrupt is only ever leave's or stepDown's, for the acquire
				Thread.interrupted();
				drop = this.left || this.stoodDown;
			}
			if (hold == null) {
				if (!drop) {
					if (this.context.isClosed() || this.context.client().getState() == CuratorFrameworkState.STOPPED) {
						logger.info("Candidacy for role '{}' ends: its Curator client or election was closed", this.role);
						synchronized (this) {
							this.left = true;
							notifyAll();
						}
						return;
					}
					logger.warn("Candidacy for role '{}' could not queue ({}); trying again in {} ms", this.role,
							failure, backoff);
					synchronized (this) {
						if (!this.left && !this.stoodDown) {
							waitQuietly(backoff);
						}
					}
					backoff = Math.min(backoff * 2, LAST_BACKOFF_MS);
				}
				continue;
			}
			backoff = FIRST_BACKOFF_MS;
			// the grant is on the session read before the acquire if no connection event came between
			boolean sure = this.context.epoch() == epochBefore && sessionBefore != 0
					&& this.context.sessionId() == sessionBefore;
			HeldTerm granted = new HeldTerm(this, hold, sure ? sessionBefore : 0, sure ? epochBefore : -1);
			synchronized (this) {
				if (!this.left && !this.stoodDown) {
					this.term = granted;
				}
				else {
					drop = true;
				}
			}
			if (drop) {
				hold.release();
				continue;
			}
			logger.debug("Candidacy for role '{}' granted its lock node {} (fencing token {})", this.role,
					hold.nodePath(), hold.fencingToken());
			hold.onLost((lost) -> reconcile());
			reconcile();
			this.watch.refresh();
			serve(granted);
			this.watch.refresh();
		}
	}

	/** Waits until the term ended, releases its hold if it was lost, and forgets it once released. */
	private void serve(HeldTerm granted) {
		boolean voluntary;
		synchronized (this) {
			while (granted.phase() != Phase.ENDED) {
				waitQuietly(0);
			}
			voluntary = granted.voluntary;
		}
		if (!voluntary) {
			// lost: frees the engine's hold; the node is gone already, or goes with its session
			granted.hold().release();
			synchronized (this) {
				granted.released = true;
			}
		}
		synchronized (this) {
			while (!granted.released) {
				waitQuietly(0);
			}
			if (this.term == granted) {
				this.term = null;
			}
			notifyAll();
		}
	}

	/** Waits on this object's monitor; an interrupt only wakes it (every caller checks its flags). */
	private void waitQuietly(long millis) {
		try {
			wait(millis);
		}
		catch (InterruptedException ex) {
			// only leave and stepDown interrupt, and only the acquire: the flags tell what to do
		}
	}

	// --- reconciliation ---

	/**
	 * Moves the current term to the phase its sources give, and queues the listener calls of the
	 * move: ends it if the engine lost its hold, revokes it if active but not live, activates it if
	 * live and confirmed at the current epoch, else has its node confirmed (or the lease renewed).
	 * Never blocks.
	 */
	void reconcile() {
		HeldTerm confirm = null;
		boolean renew = false;
		synchronized (this) {
			HeldTerm current = this.term;
			if (current == null || current.phase() == Phase.ENDED) {
				return;
			}
			LockState held = current.hold().state();
			if (held == LockState.LOST || held == LockState.RELEASED) {
				end(current, RevocationReason.SESSION_LOST);
			}
			else if (current.phase() == Phase.ACTIVE) {
				if (!this.context.isLive(current)) {
					RevocationReason why = this.context.whyNotLive(current);
					revoke(current, (why != null) ? why : RevocationReason.CONNECTION_SUSPENDED);
				}
			}
			else if (this.context.isLive(current) && current.confirmedEpoch == this.context.epoch()) {
				current.moveTo(Phase.ACTIVE, null);
				announceGranted(current);
			}
			else if (this.context.isConnected() && held == LockState.HELD) {
				if (current.confirmedEpoch != this.context.epoch()) {
					confirm = startConfirming(current) ? current : null;
				}
				else {
					renew = true;
				}
			}
			notifyAll();
		}
		this.queue.dispatch();
		if (confirm != null) {
			HeldTerm confirmed = confirm;
			try {
				this.context.io().execute(() -> confirm(confirmed));
			}
			catch (RejectedExecutionException ex) {
				synchronized (this) {
					this.confirming = false;
				}
			}
		}
		if (renew) {
			this.context.lease().renewNow();
		}
	}

	@Override
	public void reconcileSoon() {
		if (this.reconcileQueued.compareAndSet(false, true)) {
			try {
				this.context.timer().execute(() -> {
					this.reconcileQueued.set(false);
					reconcile();
				});
			}
			catch (RejectedExecutionException ex) {
				this.reconcileQueued.set(false);
			}
		}
	}

	/**
	 * The connection went away (SUSPENDED, or read-only) or the session was lost: an active term is
	 * revoked at once, on this (Curator's) thread, before any listener runs; a lost session ends it.
	 */
	void connectionLost(boolean sessionLost) {
		synchronized (this) {
			HeldTerm current = this.term;
			if (current != null && current.phase() != Phase.ENDED) {
				if (sessionLost) {
					end(current, RevocationReason.SESSION_LOST);
				}
				else if (current.phase() == Phase.ACTIVE) {
					revoke(current, RevocationReason.CONNECTION_SUSPENDED);
				}
			}
			notifyAll();
		}
		this.queue.dispatch();
	}

	/**
	 * The Curator client is closing, on its thread: the candidacy ends, its term with
	 * {@link RevocationReason#SHUTDOWN} at once; the session's end deletes its node.
	 */
	void clientClosing() {
		synchronized (this) {
			if (!this.left) {
				this.left = true;
				HeldTerm current = this.term;
				if (current != null && current.phase() != Phase.ENDED) {
					end(current, RevocationReason.SHUTDOWN);
				}
				if (this.acquiring) {
					this.thread.interrupt();
				}
			}
			notifyAll();
		}
		this.queue.dispatch();
	}

	/** The connection is back: reconcile, and read the leader again (a watch may have died with a session). */
	void connectionBack() {
		reconcile();
		this.watch.refresh();
	}

	/** Under the monitor: starts a confirmation unless one is under way or one failed a moment ago. */
	private boolean startConfirming(HeldTerm current) {
		if (this.confirming || System.nanoTime() - this.confirmAgainAt < 0) {
			return false;
		}
		this.confirming = true;
		return true;
	}

	/**
	 * Confirms on the election's ZooKeeper-read thread that a term's node is still the session's: a
	 * {@code multi} with a {@code check} of the node (ordered by the ZooKeeper leader after every
	 * earlier write), then its {@code ephemeralOwner}, compared to the session (the CURATOR-696 fix).
	 * The confirmation counts only if no connection event came while it ran.
	 */
	private void confirm(HeldTerm current) {
		long startedAt = this.context.epoch();
		boolean failed = true;
		try {
			long sessionId = this.context.sessionId();
			if (!this.context.isConnected() || sessionId == 0) {
				return;
			}
			if (current.sessionId() != 0 && current.sessionId() != sessionId) {
				endFromConfirmation(current, RevocationReason.SESSION_LOST);
				failed = false;
				return;
			}
			String nodePath = current.hold().nodePath();
			CuratorFramework client = this.context.client();
			client.transaction().forOperations(client.transactionOp().check().forPath(nodePath));
			Stat stat = client.checkExists().forPath(nodePath);
			if (stat == null) {
				endFromConfirmation(current, gone(current));
			}
			else if (stat.getEphemeralOwner() != sessionId) {
				endFromConfirmation(current, RevocationReason.SESSION_LOST);
			}
			else {
				synchronized (this) {
					if (this.context.epoch() == startedAt && current.phase() != Phase.ENDED) {
						current.confirmedOn(sessionId, startedAt);
					}
				}
			}
			failed = false;
		}
		catch (KeeperException.NoNodeException ex) {
			endFromConfirmation(current, gone(current));
			failed = false;
		}
		catch (KeeperException.SessionExpiredException ex) {
			endFromConfirmation(current, RevocationReason.SESSION_LOST);
			failed = false;
		}
		catch (Exception ex) {
			logger.debug("Could not confirm the lock node of role '{}' yet", this.role, ex);
		}
		finally {
			synchronized (this) {
				this.confirming = false;
				if (failed) {
					this.confirmAgainAt = System.nanoTime() + CONFIRM_RETRY_NANOS;
				}
			}
			if (failed) {
				scheduleReconcile(CONFIRM_RETRY_NANOS);
			}
			else {
				reconcile();
			}
		}
	}

	/** A node found missing: deleted under the same session, or gone with a session the grant raced. */
	private static RevocationReason gone(HeldTerm current) {
		return (current.sessionId() != 0) ? RevocationReason.NODE_DELETED : RevocationReason.SESSION_LOST;
	}

	private void endFromConfirmation(HeldTerm current, RevocationReason reason) {
		synchronized (this) {
			if (current.phase() != Phase.ENDED) {
				end(current, reason);
			}
			notifyAll();
		}
		this.queue.dispatch();
	}

	private void scheduleReconcile(long delayNanos) {
		try {
			this.context.timer().schedule(this::reconcile, delayNanos, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	/**
	 * Under the monitor: an active term stops, for a reason in jeopardy. The epoch moves, so that it
	 * resumes only after a confirmation begun from now on, whichever source noticed first (an event,
	 * or {@link HeldTerm#isActive()} reading an expired lease before the lease's timer ran).
	 */
	private void revoke(HeldTerm current, RevocationReason reason) {
		this.context.jeopardy();
		current.moveTo(Phase.JEOPARDY, reason);
		announceRevoked(current, reason);
	}

	/**
	 * Under the monitor: the term ends for good.
	 * @return completes once the listeners heard of it, or {@code null} if it was not active (no
	 * listener call)
	 */
	private @Nullable CompletableFuture<Void> end(HeldTerm current, RevocationReason reason) {
		boolean wasActive = current.phase() == Phase.ACTIVE;
		current.moveTo(Phase.ENDED, reason);
		notifyAll();
		return wasActive ? announceRevoked(current, reason) : null;
	}

	private void announceGranted(HeldTerm current) {
		current.announced = true;
		logger.info("This process leads role '{}' (term with fencing token {})", this.role, current.fencingToken());
		List<LeadershipListener> to = List.copyOf(this.listeners);
		this.queue.add("onGranted", () -> to.forEach((listener) -> call(listener, "onGranted",
				() -> listener.onGranted(current))));
	}

	private CompletableFuture<Void> announceRevoked(HeldTerm current, RevocationReason reason) {
		if (reason.isVoluntary()) {
			logger.info("This process no longer leads role '{}' (term with fencing token {}): {}", this.role,
					current.fencingToken(), reason);
		}
		else {
			logger.warn("This process no longer leads role '{}' (term with fencing token {}): {}", this.role,
					current.fencingToken(), reason);
		}
		List<LeadershipListener> to = List.copyOf(this.listeners);
		return this.queue.add("onRevoked", () -> {
			to.forEach((listener) -> call(listener, "onRevoked", () -> listener.onRevoked(current, reason)));
			current.lossListeners().forEach((listener) -> call(listener, "a loss listener of Term.lock()",
					() -> listener.accept(current.lock())));
		});
	}

	private void call(Object listener, String what, Runnable call) {
		try {
			call.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Leadership listener {} of role '{}' failed in {}", listener, this.role, what, ex);
		}
	}

	/** What a read of the leader found, on the election's ZooKeeper-read thread. */
	private void observed(@Nullable Candidate leader, List<Candidate> candidates) {
		boolean changed;
		HeldTerm check = null;
		synchronized (this) {
			Candidate before = this.knownLeader;
			changed = (before == null) ? leader != null
					: leader == null || !before.nodeName().equals(leader.nodeName());
			this.knownLeader = leader;
			HeldTerm current = this.term;
			if (current != null && current.phase() != Phase.ENDED) {
				String own = ZKPaths.getNodeFromPath(current.hold().nodePath());
				// a listing of this session shows every node of it (a session sees its own writes): a
				// term whose node is not listed is confirmed again, which ends it if the node is gone
				if (candidates.stream().noneMatch((candidate) -> candidate.nodeName().equals(own))) {
					this.confirmAgainAt = 0;
					check = startConfirming(current) ? current : null;
				}
			}
			if (changed) {
				List<LeadershipListener> to = List.copyOf(this.listeners);
				this.queue.add("onLeaderChanged", () -> to.forEach((listener) -> call(listener, "onLeaderChanged",
						() -> listener.onLeaderChanged(this.role, leader))));
			}
		}
		this.queue.dispatch();
		if (check != null) {
			confirm(check);
		}
	}

	// --- the application's calls ---

	@Override
	public String role() {
		return this.role;
	}

	@Override
	public boolean isLive(HeldTerm current) {
		return this.context.isLive(current);
	}

	@Override
	public @Nullable RevocationReason whyNotLive(HeldTerm current) {
		return this.context.whyNotLive(current);
	}

	@Override
	public synchronized CandidacyState state() {
		if (this.left) {
			return CandidacyState.LEFT;
		}
		HeldTerm current = this.term;
		if (current != null && current.phase() != Phase.ENDED) {
			return current.isActive() ? CandidacyState.LEADER : CandidacyState.JEOPARDY;
		}
		return this.stoodDown ? CandidacyState.STOOD_DOWN : CandidacyState.FOLLOWER;
	}

	@Override
	public boolean isLeader() {
		HeldTerm current = currentHeldTerm();
		return current != null && current.isActive();
	}

	@Override
	public Optional<Term> currentTerm() {
		return Optional.ofNullable(currentHeldTerm());
	}

	private synchronized @Nullable HeldTerm currentHeldTerm() {
		HeldTerm current = this.term;
		return (current != null && current.phase() != Phase.ENDED) ? current : null;
	}

	@Override
	public synchronized Optional<Candidate> leader() {
		return Optional.ofNullable(this.knownLeader);
	}

	@Override
	public Optional<Term> awaitTerm(Duration timeout) throws InterruptedException {
		if (timeout == null || timeout.isNegative()) {
			throw new IllegalArgumentException("Wait " + ((timeout != null) ? Durations.format(timeout) : "null")
					+ " for a term of role '" + this.role + "' is invalid: use zero or more, such as Duration.ofSeconds(30)");
		}
		long deadline = System.nanoTime() + saturatedNanos(timeout);
		synchronized (this) {
			while (true) {
				HeldTerm current = this.term;
				if (current != null && current.isActive()) {
					return Optional.of(current);
				}
				long remaining = deadline - System.nanoTime();
				if (this.left || remaining <= 0) {
					return Optional.empty();
				}
				TimeUnit.NANOSECONDS.timedWait(this, remaining);
			}
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return Math.min(duration.toNanos(), Long.MAX_VALUE / 2);
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

	@Override
	public boolean yield() {
		return this.yield(RevocationReason.YIELDED);
	}

	@Override
	public boolean yield(RevocationReason reason) {
		if (reason != RevocationReason.YIELDED && reason != RevocationReason.UNHEALTHY) {
			throw new IllegalArgumentException("Cannot yield the term of role '" + this.role + "' for reason " + reason
					+ ": use YIELDED or UNHEALTHY (the other reasons are zklock's to give)");
		}
		return endTerm(reason, Ending.YIELD);
	}

	@Override
	public void stepDown(RevocationReason reason) {
		if (reason == null || !reason.isVoluntary()) {
			throw new IllegalArgumentException("Cannot step down from role '" + this.role + "' for reason " + reason
					+ ": use UNHEALTHY, YIELDED or SHUTDOWN (the other reasons are zklock's to give)");
		}
		synchronized (this) {
			if (this.left) {
				throw new IllegalStateException("The candidacy for role '" + this.role + "' left: join the role again");
			}
			if (this.stoodDown) {
				return;
			}
		}
		endTerm(reason, Ending.STEP_DOWN);
	}

	@Override
	public void rejoin() {
		synchronized (this) {
			if (this.left) {
				throw new IllegalStateException("The candidacy for role '" + this.role + "' left: join the role again");
			}
			if (this.stoodDown) {
				this.stoodDown = false;
				notifyAll();
			}
		}
	}

	@Override
	public void leave() {
		endTerm(RevocationReason.SHUTDOWN, Ending.LEAVE);
		if (!this.cleanedUp.compareAndSet(false, true)) {
			return;
		}
		if (Thread.currentThread() != this.thread) {
			try {
				this.thread.join(THREAD_END.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (this.thread.isAlive()) {
				logger.warn("The thread of the candidacy for role '{}' did not end within {}", this.role,
						Durations.format(THREAD_END));
			}
		}
		this.watch.close();
		this.onLeft.accept(this);
	}

	/** How the application ends a term. */
	private enum Ending {

		/** Queue again at once. */
		YIELD,

		/** Do not queue again until rejoined. */
		STEP_DOWN,

		/** Leave for good. */
		LEAVE

	}

	/**
	 * Ends the current term for a reason of the application's: the state changes under the monitor,
	 * the listeners are queued, then (on this thread) it waits for them at most the handover timeout,
	 * unless called from a listener, and deletes the node.
	 * @return whether a term was ended
	 */
	private boolean endTerm(RevocationReason reason, Ending ending) {
		HeldTerm ended = null;
		CompletableFuture<Void> told = null;
		synchronized (this) {
			if (this.left) {
				return false;
			}
			if (ending == Ending.LEAVE) {
				this.left = true;
			}
			else if (ending == Ending.STEP_DOWN) {
				this.stoodDown = true;
			}
			HeldTerm current = this.term;
			if (current != null && current.phase() != Phase.ENDED) {
				current.voluntary = true;
				told = end(current, reason);
				ended = current;
			}
			if (this.acquiring && ending != Ending.YIELD) {
				this.thread.interrupt();
			}
			notifyAll();
		}
		this.queue.dispatch();
		if (ended == null) {
			return false;
		}
		awaitListeners(told);
		ended.hold().release();
		synchronized (this) {
			ended.released = true;
			notifyAll();
		}
		return true;
	}

	private void awaitListeners(@Nullable CompletableFuture<Void> told) {
		Duration timeout = this.context.handoverTimeout();
		if (told == null || timeout.isZero() || ListenerQueue.isListenerThread()) {
			return;
		}
		try {
			told.get(saturatedNanos(timeout), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			logger.warn("The onRevoked listeners of role '{}' did not return within the handover timeout of {}: "
					+ "giving up the role now, while they may still run", this.role, Durations.format(timeout));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			// listener failures are logged where they run
		}
	}

	@Override
	public Runnable addListener(LeadershipListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Leadership listener of role '" + this.role + "' must not be null");
		}
		synchronized (this) {
			this.listeners.add(listener);
			HeldTerm current = this.term;
			if (current != null && current.phase() == Phase.ACTIVE) {
				this.queue.add("onGranted", () -> call(listener, "onGranted", () -> listener.onGranted(current)));
			}
			Candidate leader = this.knownLeader;
			if (leader != null) {
				this.queue.add("onLeaderChanged", () -> call(listener, "onLeaderChanged",
						() -> listener.onLeaderChanged(this.role, leader)));
			}
		}
		this.queue.dispatch();
		return () -> removeListener(listener);
	}

	void removeListener(LeadershipListener listener) {
		this.listeners.remove(listener);
	}

	@Override
	public String toString() {
		return "Candidacy[role '" + this.role + "', " + state() + "]";
	}

}
