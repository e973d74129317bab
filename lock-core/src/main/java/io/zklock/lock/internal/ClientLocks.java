package io.zklock.lock.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.zklock.internal.Durations;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockDeadlockException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.event.LockListener;
import io.zklock.internal.LockPaths;
import io.zklock.lock.LockRefusal;
import io.zklock.lock.LockRequest;
import io.zklock.lock.event.LockTarget;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machinery of one Curator client's locks and leases, behind {@code io.zklock.lock.LockEngine},
 * which resolves lock paths against the lock root first. Its parts, one job each: the hold registry keeps holds and thread-owned reentrancy,
 * the session guard follows the connection state (doubt, loss, confirmation), the namespace
 * gate has the client's namespace made off the callers' threads before acquires send anything,
 * the lock-node queue speaks the ZooKeeper protocol, the lock release counts holds down and
 * deletes their nodes, the permit leases take semaphore permits, and the hold-bound timer reports holds
 * that outlive their {@code holdAtMost}.
 *
 * <p>
 * Internal: not part of zklock's API, no compatibility promise; public only for
 * {@code io.zklock.lock.LockEngine}, which is what to use. Thread-safe.
 */
public final class ClientLocks implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ClientLocks.class);

	private final LockListeners listeners = new LockListeners();

	private final SessionGuard guard;

	private final NamespaceGate namespace;

	private final HoldRegistry holds;

	private final LockNodeQueue queue;

	private final LockRelease release;

	private final LocalChains chains;

	private final PermitLeases permits;

	private final HoldBoundTimer bounds = new HoldBoundTimer(this.listeners);

	/** Why no lock is granted any more, once {@link #stopGranting(String)} was called. */
	private volatile @Nullable String stoppedBecause;

	private volatile LeakDetection leakDetection = LeakDetection.defaults();

	/** Who waits for what among this engine's acquires: deadlocks of this process. */
	private final WaitGraph waits;

	/**
	 * Creates the machinery over a client and starts following its connection state.
	 * @param client a started Curator client
	 * @param nodeData the bytes every lock node carries (copied)
	 * @param localHandoff whether and how far held lock nodes are handed to local waiters
	 */
	public ClientLocks(CuratorFramework client, byte[] nodeData, LocalHandoff localHandoff) {
		this.guard = new SessionGuard(client, new HoldReports.Listener() {

			@Override
			public void lost(GuardedHold hold) {
				reportLost(hold);
			}

			@Override
			public void inDoubt(GuardedHold hold) {
				reportInDoubt(hold);
			}

			@Override
			public void confirmed(GuardedHold hold, Duration inDoubtFor) {
				reportConfirmed(hold, inDoubtFor);
			}

		});
		this.namespace = new NamespaceGate(client, this.guard);
		this.holds = new HoldRegistry(this.guard);
		this.waits = new WaitGraph(this.holds);
		this.queue = new LockNodeQueue(client, nodeData, this.guard, this.namespace);
		this.chains = new LocalChains(localHandoff, client, this.holds, this.queue, this.guard);
		this.release = new LockRelease(this.holds, this.queue, this.chains, this.listeners);
		this.permits = new PermitLeases(client, this.guard);
	}

	/**
	 * Releases the holds no code can release any more (every handle of each became unreachable
	 * unreleased), logging each at WARN, then stops following the client's connection state and
	 * timing hold bounds. Other held locks stay as they are.
	 */
	@Override
	public void close() {
		for (LockHold hold : this.holds.abandoned()) {
			ReleaseResult result = this.release.releaseAbandoned(hold);
			if (result != null) {
				logger.warn("Released the {} lock on '{}' (fencing token {}, held for {}) as the lock engine closes: "
						+ "every handle of it became unreachable without being released, so no code could release "
						+ "it ({})", hold.mode(), LockPaths.escape(hold.lockPath()), hold.fencingToken(),
						Durations.format(hold.heldFor()), result);
			}
		}
		this.namespace.close();
		this.guard.close();
		this.bounds.close();
	}

	/**
	 * Grants no lock and no permit from now on: a new acquire fails at once with a
	 * {@link LockAcquisitionException} that gives {@code reason}; one already waiting fails the
	 * same way when its turn comes, and its node is deleted at once. A thread re-entering a lock it
	 * holds still gets it (that is no new lock), and held locks stay held until released.
	 * @param reason why, for the exception's message, such as "the application is shutting down"
	 */
	public void stopGranting(String reason) {
		this.stoppedBecause = reason;
	}

	/**
	 * Sets how this engine looks for leaked locks, for the grants from now on.
	 * @param leakDetection the setting
	 */
	public void setLeakDetection(LeakDetection leakDetection) {
		this.leakDetection = leakDetection;
	}

	/**
	 * Registers a listener for the events of all locks.
	 * @param listener the listener
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	public void addListener(LockListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * The lock nodes held now, oldest first.
	 * @return a snapshot, one entry per lock node
	 */
	public List<HeldLock> heldLocks() {
		return this.holds.snapshot();
	}

	/**
	 * The lock nodes held now that no code can release any more: every handle of each became
	 * unreachable unreleased.
	 * @return a snapshot, oldest first
	 */
	public List<HeldLock> leakedLocks() {
		return this.holds.abandoned().stream().map(LockHold::snapshot).toList();
	}

	/**
	 * Acquires a lock as the request says, on a lock path already checked against the lock root.
	 * @param request the request
	 * @param lockPath its lock path, relative to the lock root
	 * @param basePath the ZooKeeper path of the lock path's lock nodes
	 * @return the handle, or empty if the wait ran out (no lock node is then left behind)
	 * @throws IllegalStateException if the current thread would wait for its own
	 * thread-owned hold
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if the current thread's thread-owned hold is in doubt or lost
	 */
	public Optional<LockHandle> acquire(LockRequest request, String lockPath, String basePath) {
		LockTarget target = new LockTarget(lockPath, request.lockName().orElseGet(() -> firstSegment(lockPath)),
				request.mode());
		LeakDetection leaks = this.leakDetection;
		Duration leakThreshold = leaks.threshold();
		LockHold own = this.holds.threadHold(lockPath);
		if (own != null) {
			HoldHandle reentered = Reentry.enter(this.release, own, request);
			if (reentered != null) {
				return Optional.of(this.bounds.watch(reentered, own, request, leakThreshold));
			}
		}
		long start = System.nanoTime();
		this.listeners.acquiring(target);
		if (this.stoppedBecause != null) {
			throw failed(target, start, stoppedGranting(target));
		}
		StackTraceElement site = leaks.recordSites() ? AcquisitionSite.capture() : null;
		Deadline deadline = request.maxWait().map(Deadline::after).orElse(Deadline.never());
		WaitGraph.Wait wait = this.waits.enter(target, request.owner(), deadline.isInfinite(), site);
		LockHold hold;
		try {
			checkCycle(wait);
			hold = this.chains.acquire(target, basePath, deadline, request, site, () -> {
				if (this.stoppedBecause != null) {
					throw stoppedGranting(target);
				}
			}, () -> queueFor(target, basePath, deadline, request, site));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failed(target, start, new LockAcquisitionException(lockPath,
					"Interrupted while waiting for the " + target.mode() + " lock on '" + LockPaths.escape(lockPath)
							+ "'", ex));
		}
		catch (LockAcquisitionException ex) {
			throw failed(target, start, ex);
		}
		catch (Exception ex) {
			throw failed(target, start, new LockAcquisitionException(lockPath, "Could not acquire the "
					+ target.mode() + " lock on '" + LockPaths.escape(lockPath) + "' (ZooKeeper path " + basePath + "): "
					+ ex, ex));
		}
		catch (Error ex) {
			this.listeners.failed(target, since(start), ex);
			throw ex;
		}
		finally {
			this.waits.leave(wait);
		}
		if (hold == null) {
			this.listeners.timeout(target, since(start));
			return Optional.empty();
		}
		this.listeners.acquired(target, hold.fencingToken(), since(start));
		return Optional.of(this.bounds.watch(new HoldHandle(this.release, hold), hold, request, leakThreshold));
	}

	/**
	 * Fails an acquire that closes a certain deadlock of this process at once: every wait on the
	 * cycle, this one included, has no limit, and every hold on it is live and thread-owned. A
	 * likely one that a wait without a limit closes is logged: at WARN where only another thread's
	 * release of a call-owned handle, or the loss of a hold in doubt, can end it; at INFO where
	 * another thread on the cycle waits with a limit (the back-off of a timed acquire, which ends
	 * when that wait runs out). An acquire with a limit is never failed for a cycle: its time-out
	 * names it ({@link #explain}).
	 */
	private void checkCycle(WaitGraph.Wait wait) {
		WaitGraph.Cycle cycle = wait.cycle;
		if (cycle == null || !wait.unbounded) {
			return;
		}
		String path = LockPaths.escape(wait.target.lockPath());
		if (cycle.certain()) {
			throw new LockDeadlockException(wait.target.lockPath(), "Deadlock in this process: " + cycle.describe()
					+ ". Failing this acquire of the " + wait.target.mode() + " lock on '" + path + "' (thread '"
					+ wait.thread.getName() + "') at once, since none of these threads can go on: take these locks "
					+ "in one order everywhere (ILockByCurator.tryAcquireAll takes several in one canonical order)");
		}
		String message = "Likely deadlock in this process: {}. This acquire of the {} lock on '{}' waits without a "
				+ "limit: unless {}, it never ends.";
		if (cycle.onlyAnotherBoundedWaitLetsGo()) {
			logger.info(message, cycle.describe(), wait.target.mode(), path, cycle.wayOut());
		}
		else {
			logger.warn(message, cycle.describe(), wait.target.mode(), path, cycle.wayOut());
		}
	}

	/**
	 * What an acquire of {@code request}'s lock path by the current thread waits for now, as far
	 * as this process can tell, for the message of a wait that ran out: the holds of this engine on
	 * it (who, since when, where acquired), a cycle with this thread's own holds, and what the lock
	 * node this engine's waiters last waited for on it says of its holder.
	 * @param request the request
	 * @param lockPath its lock path, relative to the lock root
	 * @param basePath the ZooKeeper path of its lock nodes
	 * @return the explanation, or empty if this process knows nothing of it
	 */
	public Optional<String> explainWait(LockRequest request, String lockPath, String basePath) {
		return Optional.ofNullable(explain(request, lockPath, basePath).waitedFor());
	}

	/**
	 * What a wait for {@code request}'s lock path by the current thread that ran out now waited
	 * for, and so why: the connection, a cycle of this process (its own wait judged as one with a
	 * limit, since it ran out), the thread's own call-owned hold, or a busy lock.
	 * @param request the request whose wait ran out
	 * @param lockPath its lock path, relative to the lock root
	 * @param basePath the ZooKeeper path of its lock nodes
	 * @return the reason and the words, read once
	 */
	public WaitExplanation explain(LockRequest request, String lockPath, String basePath) {
		LockTarget target = new LockTarget(lockPath, lockPath, request.mode());
		List<String> parts = new ArrayList<>();
		WaitGraph.Cycle cycle = this.waits.cycleOf(target, request.owner(), false);
		if (cycle != null) {
			parts.add(cycle.certainButForFirstWait() ? "a deadlock in this process: " + cycle.describe()
					: "a likely deadlock in this process: " + cycle.describe() + " (unless " + cycle.wayOut()
							+ ", waiting can only run out)");
		}
		else {
			List<LockHold> local = this.holds.holdsOf(lockPath);
			if (!local.isEmpty()) {
				StringBuilder held = new StringBuilder();
				for (int i = 0; i < local.size() && i < 3; i++) {
					held.append((i > 0) ? "; " : "").append("this process's own ").append(local.get(i).mode())
						.append(" hold: ").append(local.get(i).describeHolder());
				}
				if (local.size() > 3) {
					held.append("; and ").append(local.size() - 3).append(" more");
				}
				parts.add(held.toString());
			}
		}
		this.queue.lastBlocker(basePath).ifPresent((seen) -> parts.add(seen.describe()));
		Instant disconnectedSince = this.guard.disconnectedSince().orElse(null);
		LockRefusal.Reason reason;
		if (disconnectedSince != null) {
			reason = LockRefusal.Reason.NOT_CONNECTED;
		}
		else if (cycle == null) {
			reason = LockRefusal.Reason.BUSY;
		}
		else {
			reason = cycle.ownCallOwnedHold() ? LockRefusal.Reason.OWN_CALL_OWNED_HOLD : LockRefusal.Reason.DEADLOCK;
		}
		return new WaitExplanation(reason, disconnectedSince, parts.isEmpty() ? null : String.join("; ", parts));
	}

	/**
	 * Takes one of {@code permits} permits of a semaphore whose path is already checked.
	 * @param path the semaphore path, relative to the lock root
	 * @param basePath the ZooKeeper path of the semaphore
	 * @param permits the permit count, at least 1
	 * @param maxWait the longest wait; {@code null} to wait as long as it takes
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	public Optional<PermitLease> acquirePermit(String path, String basePath, int permits,
			@Nullable Duration maxWait) {
		String stopped = this.stoppedBecause;
		if (stopped != null) {
			throw new LockAcquisitionException(path,
					"Not taking a permit of the semaphore '" + path + "' (" + permits + " permits): " + stopped);
		}
		return this.permits.acquire(path, basePath, permits, maxWait);
	}

	/**
	 * Queues a lock node and registers the hold. A connection-state change between the grant
	 * and the registration reaches no hold, so the registration reads the connection epoch back:
	 * a grant under a session that has ended is given up and the waiter queues again; a grant
	 * across a disconnect starts in doubt.
	 * @return the hold, or {@code null} if the deadline passed
	 */
	private @Nullable LockHold queueFor(LockTarget target, String basePath, Deadline deadline, LockRequest request,
			@Nullable StackTraceElement site) throws Exception {
		while (true) {
			GrantedNode node = this.queue.acquire(basePath, target.mode(), deadline, request.isInterruptible());
			if (node == null) {
				return null;
			}
			if (this.stoppedBecause != null) {
				// granted after granting stopped: the waiter's turn passes on at once
				this.queue.deleteInBackground(node.nodePath());
				throw stoppedGranting(target);
			}
			LockHold hold = new LockHold(target, node, request.owner(), Thread.currentThread(), site);
			if (this.holds.add(hold, node.decidedAt())) {
				return hold;
			}
			this.queue.deleteInBackground(node.nodePath());
			if (deadline.hasPassed()) {
				return null;
			}
		}
	}

	/**
	 * Since when the client is not connected, or empty while it is connected.
	 * @return the instant the connection went away, at the latest when this engine began to
	 * follow it
	 */
	public Optional<Instant> disconnectedSince() {
		return this.guard.disconnectedSince();
	}

	private void reportInDoubt(GuardedHold hold) {
		if (hold instanceof LockHold lock) {
			logger.info("The {} lock on '{}' (fencing token {}) is in doubt: the connection to ZooKeeper is suspended, "
					+ "so another process may hold it until its ownership is confirmed after a reconnect", lock.mode(),
					lock.lockPath(), lock.fencingToken());
			this.listeners.inDoubt(lock.target(), lock.fencingToken(), lock.heldFor());
		}
	}

	private void reportConfirmed(GuardedHold hold, Duration inDoubtFor) {
		if (hold instanceof LockHold lock) {
			logger.info("The {} lock on '{}' (fencing token {}) is held again: its ownership was confirmed after {} ms "
					+ "in doubt", lock.mode(), lock.lockPath(), lock.fencingToken(), inDoubtFor.toMillis());
			this.listeners.confirmed(lock.target(), lock.fencingToken(), inDoubtFor);
		}
	}

	private void reportLost(GuardedHold hold) {
		if (hold instanceof LockHold lock) {
			logger.warn("Lost the {} lock on '{}' (fencing token {})", lock.mode(), lock.lockPath(), lock.fencingToken());
			this.listeners.lost(lock.target(), lock.fencingToken(), lock.heldFor());
		}
		else {
			logger.warn("Lost {}", hold);
		}
	}

	private LockAcquisitionException stoppedGranting(LockTarget target) {
		return new LockAcquisitionException(target.lockPath(),
				"Not acquiring the " + target.mode() + " lock on '" + target.lockPath() + "': " + this.stoppedBecause);
	}

	private LockAcquisitionException failed(LockTarget target, long start, LockAcquisitionException failure) {
		this.listeners.failed(target, since(start), failure);
		return failure;
	}

	private static Duration since(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos);
	}

	private static String firstSegment(String lockPath) {
		int slash = lockPath.indexOf('/');
		return (slash < 0) ? lockPath : lockPath.substring(0, slash);
	}

}
