package io.zklock.lock.internal;

import java.time.Duration;
import java.util.ArrayDeque;

import io.zklock.lock.LockState;
import io.zklock.lock.internal.LocalWaiter.Turn;
import org.jspecify.annotations.Nullable;

/**
 * The local side of one lock node shared by the acquires of one coordinator for one lock path
 * and mode (lock cohorting, see docs/lock-protocol.md, "Local handoff"): who leads (queues in
 * ZooKeeper for the node, or holds it), the FIFO of the other local waiters, and the chain's bound.
 * Pure state, no ZooKeeper call: {@link LocalChains} sends the writes and deletes these decisions
 * call for. Thread-safe: every method runs under this object's monitor, which is never held while
 * waiting or calling out (a waiter's turn is a future completed under it).
 */
final class LocalChain {

	private final ArrayDeque<LocalWaiter> waiters = new ArrayDeque<>();

	/** A local acquire leads: it queues in ZooKeeper, or the chain's node is held or being handed on. */
	private boolean busy;

	/** The node the chain holds, or {@code null} while the leader still queues for one. */
	private @Nullable String nodePath;

	private long grantedAtNanos;

	private int handoffs;

	/**
	 * Joins the chain: the first acquire leads, the others wait in FIFO order.
	 * @return {@code true} if {@code waiter} leads (it was not queued)
	 */
	synchronized boolean join(LocalWaiter waiter) {
		if (!this.busy) {
			this.busy = true;
			return true;
		}
		this.waiters.add(waiter);
		return false;
	}

	/** Whether nobody leads or waits: the chain can be forgotten. */
	synchronized boolean isIdle() {
		return !this.busy && this.waiters.isEmpty();
	}

	/** The leader's node holds: the chain starts on it. */
	synchronized void started(String grantedNode) {
		this.nodePath = grantedNode;
		this.grantedAtNanos = System.nanoTime();
		this.handoffs = 0;
	}

	/** The leader ends without a node (gave up, failed): the next waiter leads. */
	synchronized void leadPasses() {
		this.nodePath = null;
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
			this.nodePath = null;
			this.busy = false;
			return new Release(Release.Kind.DELETE, null);
		}
		boolean bounded = this.handoffs >= maxHandoffs || System.nanoTime() - this.grantedAtNanos >= maxTime.toNanos();
		if (bounded || before != LockState.HELD) {
			// fairness bound reached, or the node may be gone: the node goes, the next waiter queues anew
			this.nodePath = null;
			return new Release(Release.Kind.DELETE_THEN_LEAD, next);
		}
		this.handoffs++;
		return new Release(Release.Kind.HAND_ON, next);
	}

	/**
	 * Hands the chain's node to {@code next}, or to the waiter after it if it gave up.
	 * @return {@code true} if no waiter is left: the node must be deleted
	 */
	synchronized boolean hand(@Nullable LocalWaiter next, GrantedNode node) {
		LocalWaiter waiter = next;
		Turn turn = new Turn(node);
		while (waiter != null) {
			if (waiter.offer(turn)) {
				return false;
			}
			waiter = this.waiters.poll();
		}
		this.nodePath = null;
		this.busy = false;
		return true;
	}

	/** Passes a handed node, never used, on to the next waiter; {@code true} if none is left (delete it). */
	synchronized boolean passOn(GrantedNode node) {
		return hand(this.waiters.poll(), node);
	}

	/** The chain's node is lost (a handoff write failed, a handed node is not ours): the chain has none. */
	synchronized void nodeLost() {
		this.nodePath = null;
	}

	/** {@code next} (or the waiter after it, if it gave up) leads: it queues with a node of its own. */
	synchronized void lead(LocalWaiter next) {
		passLead(next);
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

	/**
	 * What a release does with the chain's node.
	 * @param kind what to do
	 * @param next the waiter to hand the node to, or to lead, if any
	 */
	record Release(Kind kind, @Nullable LocalWaiter next) {

		enum Kind {

			/** Not this chain's node: the ordinary release. */
			NOT_CHAINED,

			/** No local waiter: the node is deleted, the chain is idle. */
			DELETE,

			/** The node is deleted; then the next waiter queues with a node of its own. */
			DELETE_THEN_LEAD,

			/** The node is handed to the next waiter after the handoff write. */
			HAND_ON

		}

	}

}
