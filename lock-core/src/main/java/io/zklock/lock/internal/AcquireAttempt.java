package io.zklock.lock.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * One acquire of one lock path: the lock recipe of the ZooKeeper documentation ("Recipes and
 * Solutions: Locks" and its shared-lock variant) as Curator's {@code LockInternals} runs it,
 * with the ownership check, the fencing token and two fast paths, driven by ZooKeeper replies
 * and watch events ({@link AcquireRound}):
 * <ol>
 * <li>Create one protected {@code EPHEMERAL_SEQUENTIAL} node under CONTAINER parents; its
 * {@code ephemeralOwner} must be the current session.
 * On a connected client the lock path's listing is sent right behind the create, without
 * waiting (<em>pipelined acquire</em>): ZooKeeper applies a session's requests in order and
 * parks a read behind the session's pending writes (ZOOKEEPER-2024), so that listing is taken
 * after the create. It is used only if it contains our node; otherwise (not connected, Curator
 * re-queued a call, the parent was missing) the path is listed again once the create returned.</li>
 * <li>If nothing blocks us we hold the lock; otherwise watch only the blocking node
 * ({@link BlockerWatch}), and wait.</li>
 * <li>When that node is deleted, and it was the only node blocking us in our last listing, and
 * the session is unchanged since, we hold the lock without listing again (<em>handoff without
 * re-listing</em>): sequence numbers only grow while the parent exists, and the parent cannot be
 * reaped while our node is in it. An exclusive blocker is watched with a persistent watch
 * ({@link HandoffWatch}): if it was deleted by a release after holding ({@link HandoffRelease}:
 * a data change and a deletion at one zxid), we hold the lock too, whatever stood before it
 * (<em>handoff without a listing</em>). Otherwise (also when it was gone before the watch was
 * set) list again and go back to 2.</li>
 * </ol>
 * The fencing token of a grant is the zxid of the evidence it was decided on: the lock path's
 * {@code pzxid} in the granting listing's Stat, or the zxid of the deletion event (a watch set
 * on the ZooKeeper handle itself, {@link RawWatches}; an event without one gets a listing). A
 * grant whose evidence may be another grant's too (a reader's, unless it is its own create; any
 * other, unless it is its own create or the release after holding of its last blocker) writes its
 * node once and takes that write's zxid, so that no two grants share a token, on any lock paths
 * (docs/lock-protocol.md).
 * A round whose node turns out not to be ours (an expired session, a stale follower's listing)
 * deletes it and the attempt queues again at the back with a new round. Nodes with our node's
 * protected id are our own create's ({@link ProtectedNodes}): they never block us and are deleted
 * as soon as a listing shows them. Giving up ({@link #abandon()}, {@link #fail}) deletes our node,
 * also one whose create reply is still to come, with the other nodes of its create if no listing
 * showed them yet, and removes the watches left. Every call goes through Curator's background API
 * ({@link LockNodeCalls}); the waiting caller parks on {@link #outcome()}. Thread-safe: all
 * state, the rounds' too, is guarded by one {@link ReentrantLock}.
 */
final class AcquireAttempt implements RoundOwner<AcquireRound> {

	private final QueueClient queue;

	private final LockNodeCalls calls;

	private final Deadline deadline;

	private final CompletableFuture<@Nullable GrantedNode> outcome = new CompletableFuture<>();

	private final ReentrantLock lock = new ReentrantLock();

	private @Nullable AcquireRound round;

	/** The round that looked at a listing taken after its create's reply (its duplicates go then). */
	private @Nullable AcquireRound lookedBy;

	private boolean done;

	/** The current round has sent nothing yet, or must look again, once connected. */
	private boolean waitingForConnection;

	/**
	 * @param deadline the acquire's own deadline: a round that finds the lock busy after it
	 * passed gives up at once (a zero wait still completes its create and listing)
	 */
	AcquireAttempt(QueueClient queue, LockNodeCalls calls, Deadline deadline) {
		this.queue = queue;
		this.calls = calls;
		this.deadline = deadline;
	}

	/** Completes with the granted node, or {@code null} once given up; exceptionally on failure. */
	CompletableFuture<@Nullable GrantedNode> outcome() {
		return this.outcome;
	}

	/**
	 * Whether the current round has looked at a listing taken after its create's reply: then a
	 * wait that runs out gives up at once, without another look.
	 */
	boolean hasLooked() {
		this.lock.lock();
		try {
			return this.round != null && this.lookedBy == this.round;
		}
		finally {
			this.lock.unlock();
		}
	}

	void start() {
		locked(this::newRound);
	}

	/**
	 * Gives up: deletes our node (at once, or when its create reply arrives) and removes our
	 * watches, in the background.
	 * @return the granted node if the grant won the race, else {@code null}
	 */
	@Nullable GrantedNode abandon() {
		this.lock.lock();
		try {
			if (!this.done) {
				end(null);
			}
			return this.outcome.isCompletedExceptionally() ? null : this.outcome.getNow(null);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Gives up with an error, leaving nothing behind. */
	void fail(Exception error) {
		locked(() -> {
			if (!this.done) {
				end(error);
			}
		});
	}

	/**
	 * A connection signal: after a reconnect, start a round that waited for the connection, or
	 * look at the queue again (a watch may have died with an expired session, and our node with
	 * it). While disconnected a waiter just waits: nothing is sent that Curator's retries could
	 * give up on before the wait's deadline.
	 */
	void onSignal(ConnectionSignal signal) {
		if (signal == ConnectionSignal.RECONNECTED) {
			locked(this::resumeIfConnected);
		}
	}

	// --- called by the rounds, with the lock held ---

	@Override
	public boolean isCurrent(AcquireRound candidate) {
		return !this.done && candidate == this.round;
	}

	/** Whether a round's watch events still matter: it is current, or the attempt ended with it. */
	@Override
	public boolean isCurrentOrEnded(AcquireRound candidate) {
		return candidate == this.round;
	}

	@Override
	public boolean isPastDeadline() {
		return this.deadline.hasPassed();
	}

	/** Starts a new round: a new lock node at the back of the queue, sent once connected. */
	@Override
	public void newRound() {
		if (this.round != null) {
			this.round.removeWatches();
		}
		this.round = new AcquireRound(this, this.queue, this.calls);
		this.waitingForConnection = true;
		resumeIfConnected();
	}

	/**
	 * A reply of the current round failed for the connection's sake: look again once connected
	 * (at once, if the connection is back already).
	 */
	@Override
	public void lookAgainWhenConnected() {
		this.waitingForConnection = true;
		resumeIfConnected();
	}

	/** Sends what the current round waits to send, or has it look at the queue again, once connected. */
	private void resumeIfConnected() {
		if (this.done || this.round == null || !this.queue.isConnected()) {
			return;
		}
		if (this.waitingForConnection) {
			this.waitingForConnection = false;
			this.round.resume();
		}
		else {
			this.round.recheck();
		}
	}

	@Override
	public void looked(List<String> duplicates) {
		this.lookedBy = this.round;
		if (!duplicates.isEmpty()) {
			this.queue.deleteAll(duplicates);
		}
	}

	/** A create whose reply came after the attempt ended or moved on: its nodes go. */
	@Override
	public void createdTooLate(@Nullable String nodePath) {
		// none: Curator's protected mode finds and deletes a node whose create failed for good
		if (nodePath != null) {
			deleteOwnNode(nodePath, true);
		}
	}

	@Override
	public void grant() {
		this.done = true;
		this.round.removeWatches();
		this.outcome.complete(this.round.granted(this.queue.epoch()));
	}

	/**
	 * Ends the attempt without a grant: given up ({@code error == null}) or failed. Our node and
	 * watches go, in the background; a create still in flight is deleted when its reply arrives.
	 */
	@Override
	public void end(@Nullable Exception error) {
		this.done = true;
		AcquireRound current = this.round;
		if (current != null) {
			current.removeWatches();
		}
		if (current != null && current.nodePath() != null) {
			deleteOwnNode(current.nodePath(), this.lookedBy != current);
		}
		if (error != null) {
			this.outcome.completeExceptionally(error);
		}
		else {
			this.outcome.complete(null);
		}
	}

	/**
	 * Deletes the node of a round that gave up, in the background, and the other nodes of its
	 * create unless a listing showed them already (they are deleted then).
	 */
	private void deleteOwnNode(String nodePath, boolean withDuplicates) {
		if (withDuplicates) {
			this.queue.deleteWithDuplicates(nodePath);
		}
		else {
			this.queue.deleteInBackground(nodePath);
		}
	}

	/** Sends a background request; a request that cannot even be sent ends the attempt. */
	@Override
	public void send(RoundOwner.Request request) {
		try {
			request.send();
		}
		catch (Exception ex) {
			end(ex);
		}
	}

	@Override
	public void locked(Runnable step) {
		this.lock.lock();
		try {
			step.run();
		}
		finally {
			this.lock.unlock();
		}
	}

}
