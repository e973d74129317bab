package io.zklock.lock.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockState;
import io.zklock.lock.event.LockTarget;
import io.zklock.lock.internal.LocalWaiter.Turn;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Local handoff (lock cohorting) for one engine: the {@link LocalChain} of each lock path and
 * exclusive mode in use, and the ZooKeeper side of its decisions (the handoff write
 * {@link HandoffWrite}, deletes of nodes a chain gives up). An {@code EXCLUSIVE} or {@code WRITE}
 * acquire joins its chain: the first leads (queues the ordinary way), the others wait in memory and
 * are handed the node, or lead in turn. {@code READ} acquires, and every acquire while local handoff
 * is off, take the ordinary path. The argument: docs/lock-protocol.md, "Local handoff". Thread-safe.
 */
final class LocalChains {

	private static final AfterRelease ORDINARY = new AfterRelease(false, () -> {
	});

	private final LocalHandoff settings;

	private final CuratorFramework client;

	private final HoldRegistry holds;

	private final LockNodeQueue queue;

	private final SessionGuard guard;

	/** Handoff writes kept in flight or ready ahead of the releases of a held node. */
	private static final int WRITES_AHEAD = 3;

	private final ConcurrentMap<Key, LocalChain> chains = new ConcurrentHashMap<>();

	LocalChains(LocalHandoff settings, CuratorFramework client, HoldRegistry holds, LockNodeQueue queue,
			SessionGuard guard) {
		this.settings = settings;
		this.client = client;
		this.holds = holds;
		this.queue = queue;
		this.guard = guard;
		guard.subscribe(this::onSignal);
	}

	/**
	 * A session that ended takes its chains with it: a LOST signal ends the chains of the session
	 * the client had, a reconnection under a new session those of every other session
	 * (docs/lock-protocol.md, "Local handoff", session loss).
	 */
	private void onSignal(ConnectionSignal signal) {
		if (signal != ConnectionSignal.LOST && signal != ConnectionSignal.RECONNECTED) {
			return;
		}
		long current = this.guard.sessionId();
		this.chains.forEach((key, chain) -> {
			long session = chain.sessionOfNode();
			if (session != 0 && (signal == ConnectionSignal.LOST || session != current) && chain.sessionEnded(session)) {
				forgetIfIdle(key, chain);
			}
		});
	}

	/**
	 * Acquires through the chain of the target's lock path and mode, or the ordinary way.
	 * @param site where it is acquired from, if recorded
	 * @param checkGranting throws if the engine grants no lock any more
	 * @param ordinary queues a lock node of the caller's own and registers its hold
	 * @return the registered hold, or {@code null} if the deadline passed first (nothing is left
	 * behind)
	 * @throws InterruptedException if interrupted while waiting in the FIFO, when the request is
	 * interruptible
	 * @throws Exception whatever the ordinary path throws
	 */
	@Nullable LockHold acquire(LockTarget target, String basePath, Deadline deadline, LockRequest request,
			@Nullable StackTraceElement site, Runnable checkGranting, OrdinaryPath ordinary) throws Exception {
		if (!this.settings.enabled() || target.mode() == LockMode.READ) {
			return ordinary.queue();
		}
		Key key = new Key(basePath, target.mode());
		LocalWaiter waiter = new LocalWaiter();
		boolean[] leads = new boolean[1];
		LocalChain chain = this.chains.compute(key, (k, existing) -> {
			LocalChain joined = (existing != null) ? existing : new LocalChain();
			leads[0] = joined.join(waiter);
			return joined;
		});
		if (!leads[0]) {
			// a write for this waiter goes out while the node is held, so that its turn finds its token ready
			pump(key, chain);
		}
		Turn turn = leads[0] ? Turn.LEAD : awaitTurn(key, chain, waiter, deadline, request.isInterruptible());
		if (turn == null) {
			return null;
		}
		HandoffToken token = turn.token();
		if (token != null) {
			GrantedNode node = token.node();
			try {
				checkGranting.run();
			}
			catch (RuntimeException ex) {
				dropIfLast(key, chain, chain.passOn(token, staleBefore()), node);
				pump(key, chain);
				throw ex;
			}
			LockHold hold = new LockHold(target, node, request.owner(), Thread.currentThread(), site);
			if (this.holds.add(hold, node.decidedAt())) {
				return hold;
			}
			// the session ended since the handoff was decided: the node is not ours, we lead
			chain.nodeLost();
			this.queue.deleteInBackground(node.nodePath());
		}
		if (!leads[0]) {
			if (deadline.hasPassed()) {
				passLead(key, chain);
				return null;
			}
			try {
				checkGranting.run();
			}
			catch (RuntimeException ex) {
				passLead(key, chain);
				throw ex;
			}
		}
		return lead(key, chain, ordinary);
	}

	private @Nullable LockHold lead(Key key, LocalChain chain, OrdinaryPath ordinary) throws Exception {
		LockHold hold = null;
		try {
			hold = ordinary.queue();
			return hold;
		}
		finally {
			if (hold != null) {
				chain.started(hold.nodePath(), hold.fencingToken(), hold.sessionId());
				pump(key, chain);
			}
			else {
				passLead(key, chain);
			}
		}
	}

	private @Nullable Turn awaitTurn(Key key, LocalChain chain, LocalWaiter waiter, Deadline deadline,
			boolean interruptible) throws InterruptedException {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					Turn turn = waiter.await(deadline);
					return (turn != null) ? turn : chain.giveUp(waiter);
				}
				catch (InterruptedException ex) {
					if (!interruptible) {
						// keeps its place; the flag is set again on return
						interrupted = true;
						continue;
					}
					Turn turn = chain.giveUp(waiter);
					if (turn == null) {
						throw ex;
					}
					interrupted = true;
					if (turn.node() == null) {
						// the lead came with the interrupt: it passes on
						passLead(key, chain);
						throw ex;
					}
					return turn;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Decides what the last release of a hold does with its node: hand it on (then the caller
	 * does not delete it) or delete it; {@link AfterRelease#then()} runs once the release is
	 * reported (the handoff write, or the next waiter's lead).
	 * @param before the hold's state before its last entry went: only a HELD node is handed on
	 */
	AfterRelease release(LockHold hold, LockState before) {
		if (!this.settings.enabled() || hold.mode() == LockMode.READ) {
			return ORDINARY;
		}
		String basePath = ZKPaths.getPathAndNode(hold.nodePath()).getPath();
		Key key = new Key(basePath, hold.mode());
		LocalChain chain = this.chains.get(key);
		if (chain == null) {
			return ORDINARY;
		}
		LocalChain.Release release = chain.release(hold, before, this.settings.maxHandoffs(), this.settings.maxTime());
		return switch (release.kind()) {
			case NOT_CHAINED -> ORDINARY;
			case DELETE -> new AfterRelease(false, () -> forgetIfIdle(key, chain));
			case DELETE_THEN_LEAD -> {
				LocalWaiter next = release.waiter();
				yield new AfterRelease(false, () -> {
					chain.lead(next);
					forgetIfIdle(key, chain);
				});
			}
			case HAND_ON -> handOn(key, chain, hold, release.waiter());
		};
	}

	private AfterRelease handOn(Key key, LocalChain chain, LockHold hold, LocalWaiter next) {
		String nodePath = hold.nodePath();
		return new AfterRelease(true, () -> {
			LocalChain.HandOn outcome = chain.handOn(next, staleBefore());
			if (outcome == LocalChain.HandOn.DELETE) {
				this.queue.deleteInBackground(nodePath);
				forgetIfIdle(key, chain);
			}
			else if (outcome == LocalChain.HandOn.LEAD) {
				this.queue.deleteInBackground(nodePath);
				chain.lead(next);
				forgetIfIdle(key, chain);
			}
			else {
				pump(key, chain);
			}
		});
	}

	/** Sends the handoff writes the chain wants now (see {@link LocalChain#reserveWrites}). */
	private void pump(Key key, LocalChain chain) {
		LocalChain.Writes writes = chain.reserveWrites(WRITES_AHEAD, this.settings.maxHandoffs());
		String nodePath = writes.nodePath();
		if (nodePath == null) {
			// Writes.NONE: nothing to send
			return;
		}
		long sessionId = writes.sessionId();
		for (int i = 0; i < writes.count(); i++) {
			// read before the write: a connection event before its reply starts the next hold in doubt
			long decidedAt = this.guard.epoch();
			long writtenAt = System.nanoTime();
			HandoffWrite.send(this.client, key.basePath(), nodePath, (token) -> {
				HandoffToken handed = new HandoffToken(
						new GrantedNode(nodePath, token, sessionId, decidedAt), writes.ticketsBefore(), writtenAt);
				if (chain.written(handed, staleBefore())) {
					dropIfLast(key, chain, true, handed.node());
				}
				else {
					// keeps writes ahead (and one for a pending handoff whose token was dropped)
					pump(key, chain);
				}
			}, () -> {
				LocalWaiter next = chain.writeFailed(nodePath);
				if (next != null) {
					this.queue.deleteInBackground(nodePath);
					chain.lead(next);
					forgetIfIdle(key, chain);
				}
			});
		}
	}

	/**
	 * Tokens written before this instant ({@link System#nanoTime()}) are not handed on: their
	 * writes were sent half a session timeout ago or more, so the session may have ended since
	 * (docs/lock-protocol.md, "The handoff write").
	 */
	private long staleBefore() {
		return System.nanoTime() - this.guard.sessionLeaseNanos();
	}

	private void dropIfLast(Key key, LocalChain chain, boolean noWaiterLeft, GrantedNode node) {
		if (noWaiterLeft) {
			this.queue.deleteInBackground(node.nodePath());
			forgetIfIdle(key, chain);
		}
	}

	private void passLead(Key key, LocalChain chain) {
		chain.leadPasses();
		forgetIfIdle(key, chain);
	}

	/** Forgets an idle chain; a new acquire then starts a new one (joins happen in the map's compute). */
	private void forgetIfIdle(Key key, LocalChain chain) {
		this.chains.computeIfPresent(key, (k, existing) -> (existing == chain && chain.isIdle()) ? null : existing);
	}

	/** Queues a lock node of the caller's own, the ordinary way, and registers its hold. */
	@FunctionalInterface
	interface OrdinaryPath {

		@Nullable LockHold queue() throws Exception;

	}

	/**
	 * What a release does after the chain decided.
	 * @param handedOn whether the node is handed on (not deleted by the release)
	 * @param then runs once the release is reported
	 */
	record AfterRelease(boolean handedOn, Runnable then) {
	}

	private record Key(String basePath, LockMode mode) {
	}

}
