package io.zklock.lock.internal;

import java.time.Duration;
import java.util.ArrayDeque;

import io.zklock.lock.LockState;
import io.zklock.lock.internal.LocalWaiter.Turn;
import org.jspecify.annotations.Nullable;

/**
 * The local side of one lock node shared by the acquires of one engine for one lock path
 * and mode (lock cohorting, see docs/lock-protocol.md, "Local handoff"): who leads (queues in
 * ZooKeeper for the node, or holds it), the FIFO of the other local waiters, the chain's bound, and
 * the handoff writes prepared ahead (each write's zxid is one future holder's token; up to
 * {@code depth} are in flight or ready while the node is held, so that a release finds the next
 * token waiting). Tokens are handed out in increasing order: a ready token not above the last one
 * handed out is dropped, and so is one the next waiter may not take: written for a waiter that
 * joined before it (its write was reserved before this waiter's ticket), or older than the
 * session's lease (see docs/lock-protocol.md, "The handoff write"); a write is then sent for the
 * waiter. A failed write ends the chain: nothing more is handed. Pure state, no ZooKeeper call:
 * {@link LocalChains} sends the writes and deletes these decisions call for. Thread-safe: every method runs under this object's monitor,
 * which is never held while waiting or calling out (a waiter's turn is a future completed under it).
 */
final class LocalChain {

	private final ArrayDeque<LocalWaiter> waiters = new ArrayDeque<>();

	/** Tokens of handoff writes that returned and are not handed out yet, in zxid order. */
	private final ArrayDeque<HandoffToken> ready = new ArrayDeque<>();

	/** Tickets given to joining waiters so far: the next waiter's ticket. */
	private long tickets;

	/** A local acquire leads: it queues in ZooKeeper, or the chain's node is held or being handed on. */
	private boolean busy;

	/** The node the chain holds, or {@code null} while the leader still queues for one. */
	private @Nullable String nodePath;

	private long sessionId;

	private long grantedAtNanos;

	private int handoffs;

	/** The token of the latest holder of the node. */
	private long lastToken;

	private int inFlight;

	/** A handoff write failed: the node may be gone, nothing more is handed on. */
	private boolean broken;

	/** The waiter a handoff waits a token for. */
	private @Nullable LocalWaiter pending;

	/**
	 * Joins the chain: the first acquire leads, the others wait in FIFO order.
	 * @return {@code true} if {@code waiter} leads (it was not queued)
	 */
	synchronized boolean join(LocalWaiter waiter) {
		waiter.ticket = this.tickets++;
		if (!this.busy) {
			this.busy = true;
			return true;
		}
		this.waiters.add(waiter);
		return false;
	}

	/** The session of the chain's node, or 0 while the chain has none. */
	synchronized long sessionOfNode() {
		return (this.nodePath != null) ? this.sessionId : 0;
	}

	/** Whether nobody leads or waits. */
	synchronized boolean isIdle() {
		return !this.busy && this.waiters.isEmpty();
	}

	/** The leader's node holds, with {@code token}, under {@code session}: the chain starts on it. */
	synchronized void started(String grantedNode, long token, long session) {
		drop();
		this.nodePath = grantedNode;
		this.sessionId = session;
		this.grantedAtNanos = System.nanoTime();
		this.handoffs = 0;
		this.lastToken = token;
	}

	/** The leader ends without a node: the next waiter leads. */
	synchronized void leadPasses() {
		drop();
		passLead(null);
	}

	/**
	 * A waiter gives up (its wait ran out, or it was interrupted).
	 * @return the turn it was given meanwhile, which it must take; {@code null} if it left the FIFO
	 * (a turn on its way to it passes on)
	 */
	synchronized @Nullable Turn giveUp(LocalWaiter waiter) {
		Turn turn = waiter.giveUp();
		if (turn == null) {
			this.waiters.remove(waiter);
		}
		return turn;
	}

	/**
	 * How many handoff writes to send now for the held node: one in flight or ready per waiter, at
	 * most {@code depth}, never past the count bound.
	 * @return the node to write for, how many writes, and the tickets given out before them (the
	 * waiters that may take their tokens); reserved as in flight
	 */
	synchronized Writes reserveWrites(int depth, int maxHandoffs) {
		if (this.nodePath == null || this.broken) {
			return Writes.NONE;
		}
		// the pending handoff is decided (counted) already; later ones stay within the count bound
		int later = Math.min(this.waiters.size(), Math.max(0, maxHandoffs - this.handoffs));
		int wanted = Math.min(depth, later + ((this.pending != null) ? 1 : 0));
		int count = Math.max(0, wanted - this.inFlight - this.ready.size());
		this.inFlight += count;
		return new Writes(this.nodePath, this.sessionId, count, this.tickets);
	}

	/**
	 * A handoff write returned with {@code token}.
	 * @param staleBefore tokens written before this instant ({@link System#nanoTime()}) are past
	 * the session's lease
	 * @return {@code true} if the node must be deleted (it was handed to a waiter that gave up, and
	 * none is left)
	 */
	synchronized boolean written(HandoffToken token, long staleBefore) {
		if (!token.node().nodePath().equals(this.nodePath)) {
			return false;
		}
		this.inFlight--;
		if (this.broken || token.node().fencingToken() <= this.lastToken) {
			return false;
		}
		this.ready.add(token);
		return (this.pending != null) && handPending(staleBefore) == HandOn.DELETE;
	}

	/**
	 * A handoff write for {@code failedNode} failed: the chain ends, nothing more is handed (not even
	 * tokens written before), and the node goes at its holder's release.
	 * @return the waiter that now leads with a node of its own, if the node was released already and
	 * waited for this write (the node must then be deleted), or {@code null} for nothing to do yet
	 */
	synchronized @Nullable LocalWaiter writeFailed(String failedNode) {
		if (!failedNode.equals(this.nodePath)) {
			return null;
		}
		this.inFlight--;
		this.broken = true;
		this.ready.clear();
		LocalWaiter next = this.pending;
		if (next == null) {
			return null;
		}
		drop();
		return next;
	}

	/**
	 * Decides what the last release of a hold of this chain's node does.
	 * @param hold the hold whose last entry went
	 * @param before its state before that: a node that is not HELD is never handed on
	 * @param maxHandoffs the most handoffs of one node
	 * @param maxTime the longest time since the node's grant during which it is handed on
	 */
	synchronized Release release(LockHold hold, LockState before, int maxHandoffs, Duration maxTime) {
		if (this.nodePath == null || !this.nodePath.equals(hold.nodePath())) {
			return new Release(Release.Kind.NOT_CHAINED, null);
		}
		LocalWaiter next = this.waiters.poll();
		if (next == null) {
			drop();
			this.busy = false;
			return new Release(Release.Kind.DELETE, null);
		}
		boolean bounded = this.handoffs >= maxHandoffs || System.nanoTime() - this.grantedAtNanos >= maxTime.toNanos();
		if (bounded || before != LockState.HELD || this.broken) {
			// fairness bound reached, or the node may be gone: the node goes, the next waiter queues anew
			drop();
			return new Release(Release.Kind.DELETE_THEN_LEAD, next);
		}
		this.handoffs++;
		return new Release(Release.Kind.HAND_ON, next);
	}

	/**
	 * Hands the node to {@code next} (decided by {@link #release}) once the release is reported:
	 * at once with a ready token it may take, else when a write for it returns.
	 * @param staleBefore tokens written before this instant are past the session's lease
	 * @return the outcome: handed or waiting for a write, the node to delete (no waiter left), or the
	 * waiter to lead (the chain ended)
	 */
	synchronized HandOn handOn(LocalWaiter next, long staleBefore) {
		if (this.nodePath == null) {
			return HandOn.LEAD;
		}
		if (this.broken) {
			drop();
			return HandOn.LEAD;
		}
		this.pending = next;
		return handPending(staleBefore);
	}

	/**
	 * Passes a handed token, never used (its waiter could not take the grant), on to the next waiter.
	 * @param staleBefore tokens written before this instant are past the session's lease
	 * @return {@code true} if no waiter is left: the node must be deleted
	 */
	synchronized boolean passOn(HandoffToken token, long staleBefore) {
		if (!token.node().nodePath().equals(this.nodePath) || this.broken) {
			// the chain moved on or ended meanwhile: the node is not handed again
			LocalWaiter next = this.waiters.poll();
			if (next == null) {
				drop();
				this.busy = false;
				return true;
			}
			passLead(next);
			return false;
		}
		this.ready.addFirst(token);
		this.pending = this.waiters.poll();
		if (this.pending == null) {
			drop();
			this.busy = false;
			return true;
		}
		return handPending(staleBefore) == HandOn.DELETE;
	}

	/** The chain's node is lost (a handed node is not ours): the chain has none. */
	synchronized void nodeLost() {
		drop();
	}

	/**
	 * The session {@code ended} ended: a chain on a node of it ends at once (the node died with
	 * the session), nothing more is handed, and the waiter first in line leads with a node of the
	 * new session; the lost holder's release then finds the chain on no node.
	 * @return whether this chain ended
	 */
	synchronized boolean sessionEnded(long ended) {
		if (this.nodePath == null || this.sessionId != ended) {
			return false;
		}
		LocalWaiter next = this.pending;
		drop();
		passLead(next);
		return true;
	}

	/** {@code next} (or the waiter after it, if it gave up) leads: it queues with a node of its own. */
	synchronized void lead(LocalWaiter next) {
		passLead(next);
	}

	/**
	 * Hands the first ready token the pending waiter may take (dropping those it may not: they are
	 * no better for later waiters), skipping waiters that gave up.
	 * @return HANDED (handed, or waiting for a write), or DELETE if no waiter is left
	 */
	private HandOn handPending(long staleBefore) {
		while (this.pending != null) {
			if (this.pending.hasGivenUp()) {
				this.pending = this.waiters.poll();
				continue;
			}
			HandoffToken token = this.ready.poll();
			if (token == null) {
				// a write for it is on its way (LocalChains keeps one in flight for the pending waiter)
				return HandOn.HANDED;
			}
			if (!token.mayGoTo(this.pending.ticket, staleBefore)) {
				continue;
			}
			LocalWaiter waiter = this.pending;
			this.pending = null;
			this.lastToken = token.node().fencingToken();
			waiter.offer(new Turn(token));
			return HandOn.HANDED;
		}
		drop();
		this.busy = false;
		return HandOn.DELETE;
	}

	private void passLead(@Nullable LocalWaiter first) {
		LocalWaiter waiter = (first != null) ? first : this.waiters.poll();
		while (waiter != null) {
			if (waiter.offer(Turn.LEAD)) {
				return;
			}
			waiter = this.waiters.poll();
		}
		this.busy = false;
	}

	/** Forgets the node and its writes (replies still to come are ignored). */
	private void drop() {
		this.nodePath = null;
		this.ready.clear();
		this.inFlight = 0;
		this.broken = false;
		this.pending = null;
	}

	/**
	 * Handoff writes to send for a node (of a session).
	 * @param ticketsBefore the tickets given out when they were reserved: only waiters with a
	 * smaller ticket may take their tokens
	 */
	record Writes(@Nullable String nodePath, long sessionId, int count, long ticketsBefore) {
		static final Writes NONE = new Writes(null, 0, 0, 0);
	}

	/** What {@link #handOn(LocalWaiter)} left to do. */
	enum HandOn {
		/** Handed, or waiting for a write that will hand it. */
		HANDED,
		/** No waiter left: the node must be deleted. */
		DELETE,
		/** The chain ended (a write failed) or lost its node: the waiter leads with a node of its own. */
		LEAD
	}

	/**
	 * What a release does with the chain's node.
	 * @param kind what to do
	 * @param next the waiter to hand the node to, or to lead, if any
	 */
	record Release(Kind kind, @Nullable LocalWaiter next) {

		/** The waiter of {@link Kind#DELETE_THEN_LEAD} and {@link Kind#HAND_ON}, which always name one. */
		LocalWaiter waiter() {
			if (this.next == null) {
				throw new IllegalStateException(this.kind + " names no waiter");
			}
			return this.next;
		}

		enum Kind {

			/** Not this chain's node: the ordinary release. */
			NOT_CHAINED,

			/** No local waiter: the node is deleted, the chain is idle. */
			DELETE,

			/** The node is deleted; then the next waiter queues with a node of its own. */
			DELETE_THEN_LEAD,

			/** The node is handed to the next waiter with the next handoff write's token. */
			HAND_ON

		}

	}

}
