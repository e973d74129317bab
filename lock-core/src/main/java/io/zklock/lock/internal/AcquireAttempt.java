package io.zklock.lock.internal;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One acquire of one lock path: the lock recipe of the ZooKeeper documentation ("Recipes and
 * Solutions: Locks" and its shared-lock variant) as Curator's {@code LockInternals} runs it,
 * with the ownership check, the fencing token and two fast paths, driven by ZooKeeper replies
 * and watch events (its rounds, {@link Round}):
 * <ol>
 * <li>Create one protected {@code EPHEMERAL_SEQUENTIAL} node under CONTAINER parents; its
 * {@code ephemeralOwner} must be the current session.
 * On a connected client the lock path's listing is sent right behind the create, without
 * waiting (<em>pipelined acquire</em>): ZooKeeper applies a session's requests in order and
 * parks a read behind the session's pending writes (ZOOKEEPER-2024), so that listing is taken
 * after the create. It is used only if it contains our node; otherwise (not connected, Curator
 * re-queued a call, the parent was missing) the path is listed again once the create returned.
 * A platform thread sends that listing itself and reads its reply ({@link #listOnCaller()}),
 * one thread hand-off less than a reply through the event thread (docs/lock-protocol.md, "Who
 * waits for a reply").</li>
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
final class AcquireAttempt {

	private final QueueClient queue;

	private final LockNodeCalls calls;

	private final Deadline deadline;

	private final CompletableFuture<@Nullable GrantedNode> outcome = new CompletableFuture<>();

	private final ReentrantLock lock = new ReentrantLock();

	private @Nullable Round round;

	/** The round that looked at a listing taken after its create's reply (its duplicates go then). */
	private @Nullable Round lookedBy;

	private boolean done;

	/** The current round has sent nothing yet, or must look again, once connected. */
	private boolean waitingForConnection;

	/** While {@link #start(boolean)} runs: whether the caller sends the first round's listing itself. */
	private boolean callerLists;

	/** The round whose pipelined listing the caller is to send ({@link #listOnCaller()}), if any. */
	private @Nullable Round listingForCaller;

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

	/**
	 * Starts the first round: sends its create and, unless {@code callerLists}, the listing behind
	 * it.
	 * @param callerLists whether the calling thread sends the listing itself right after, with
	 * {@link #listOnCaller()}
	 */
	void start(boolean callerLists) {
		locked(() -> {
			this.callerLists = callerLists;
			try {
				newRound();
			}
			finally {
				this.callerLists = false;
			}
		});
	}

	/**
	 * On the thread that started the attempt, right after {@link #start(boolean) start(true)}:
	 * sends the first round's pipelined listing as a synchronous call, so that the reply comes
	 * straight from the client's I/O thread, and hands it to the round (which decides once its
	 * create's reply has come too). Does nothing if the round sent no create (not connected) or
	 * is over already.
	 */
	void listOnCaller() {
		Round round;
		this.lock.lock();
		try {
			round = this.listingForCaller;
			this.listingForCaller = null;
			if (round == null || !isCurrent(round)) {
				return;
			}
		}
		finally {
			this.lock.unlock();
		}
		Listing listing = this.calls.listOnCaller();
		ifCurrentRun(round, () -> round.onPipelinedListing(listing));
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

	private boolean isCurrent(Round candidate) {
		return !this.done && candidate == this.round;
	}

	/** Whether a round's watch events still matter: it is current, or the attempt ended with it. */
	private boolean isCurrentOrEnded(Round candidate) {
		return candidate == this.round;
	}

	private boolean isPastDeadline() {
		return this.deadline.hasPassed();
	}

	/** Starts a new round: a new lock node at the back of the queue, sent once connected. */
	private void newRound() {
		if (this.round != null) {
			this.round.removeWatches();
		}
		this.round = new Round();
		this.waitingForConnection = true;
		resumeIfConnected();
	}

	/**
	 * A reply of the current round failed for the connection's sake: look again once connected
	 * (at once, if the connection is back already).
	 */
	private void lookAgainWhenConnected() {
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

	private void looked(List<String> duplicates) {
		this.lookedBy = this.round;
		if (!duplicates.isEmpty()) {
			this.queue.deleteAll(duplicates);
		}
	}

	/** A create whose reply came after the attempt ended or moved on: its nodes go. */
	private void createdTooLate(@Nullable String nodePath) {
		// none: Curator's protected mode finds and deletes a node whose create failed for good
		if (nodePath != null) {
			deleteOwnNode(nodePath, true);
		}
	}

	private void grant() {
		this.done = true;
		Round granted = Objects.requireNonNull(this.round, "a grant comes from a round");
		granted.removeWatches();
		this.outcome.complete(granted.granted(this.queue.epoch()));
	}

	/**
	 * Ends the attempt without a grant: given up ({@code error == null}) or failed. Our node and
	 * watches go, in the background; a create still in flight is deleted when its reply arrives.
	 */
	private void end(@Nullable Exception error) {
		this.done = true;
		Round current = this.round;
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
	private void send(Request request) {
		try {
			request.send();
		}
		catch (Exception ex) {
			end(ex);
		}
	}

	void locked(Runnable step) {
		this.lock.lock();
		try {
			step.run();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Routes the result code of a reply about {@code path}: NoNode to {@code onNoNode}; a
	 * connection problem to looking again once connected; any other failure ends the attempt;
	 * success to {@code onOk}.
	 */
	private void route(int resultCode, @Nullable String path, Runnable onNoNode, Runnable onOk) {
		KeeperException.Code code = KeeperException.Code.get(resultCode);
		if (code == KeeperException.Code.NONODE) {
			onNoNode.run();
		}
		else if (LockNodeCalls.isConnectionProblem(code)) {
			lookAgainWhenConnected();
		}
		else if (code != KeeperException.Code.OK) {
			end(KeeperException.create(code, path));
		}
		else {
			onOk.run();
		}
	}

	/** A reply handler that runs {@code step} under the attempt's lock, while {@code round} is current. */
	private BackgroundCallback ifCurrent(Round round, Consumer<CuratorEvent> step) {
		return (client, event) -> ifCurrentRun(round, () -> step.accept(event));
	}

	/** A handler of a read's reply that runs {@code step} under the lock, while {@code round} is current. */
	private RawWatches.Read ifCurrentRead(Round round, RawWatches.Read step) {
		return (resultCode, data, stat) -> ifCurrentRun(round, () -> step.read(resultCode, data, stat));
	}

	private void ifCurrentRun(Round round, Runnable step) {
		locked(() -> {
			if (isCurrent(round)) {
				step.run();
			}
		});
	}

	/** A background call that may fail while being sent (the client is closing). */
	@FunctionalInterface
	private interface Request {

		void send() throws Exception;

	}

	/**
	 * One round of the attempt: the protocol steps of one lock node, from its create to the grant,
	 * driven by ZooKeeper replies and watch events. A round that finds its node is not ours any
	 * more asks the attempt for a new round. Every method runs under the attempt's lock; replies and
	 * events of a round that is no longer current are ignored.
	 */
	private final class Round {


		private final BlockerWatch watch;

		private boolean started;

		private boolean createInFlight;

		private @Nullable String ourPath;

		private @Nullable Stat ourStat;

		private long session;

		private boolean awaitingPipelinedListing;

		private @Nullable Listing pipelined;

		/** The fencing token of the grant: the zxid of its evidence (docs/lock-protocol.md). */
		private long fencingToken;

		private @Nullable QueuePosition waitingAt;

		Round() {
			this.watch = new BlockerWatch(AcquireAttempt.this.queue, (step) -> locked(() -> {
				if (isCurrent(this)) {
					step.run();
				}
			}), this::blockerGone, this::list);
		}

		/**
		 * Sends what is due on a connected client: the create, with the listing right behind it; or,
		 * after a reply lost with the connection, the read that was lost.
		 */
		void resume() {
			if (!this.started) {
				start();
			}
			else if (this.ourPath != null && this.ourStat == null && !this.createInFlight) {
				readOwnStat(this.ourPath);
			}
			else {
				recheck();
			}
		}

		private void start() {
			this.started = true;
			this.createInFlight = true;
			this.awaitingPipelinedListing = AcquireAttempt.this.queue.isConnected();
			AcquireAttempt.this.send(() -> AcquireAttempt.this.calls.create((client, event) -> AcquireAttempt.this.locked(() -> onCreated(event))));
			if (this.awaitingPipelinedListing && !AcquireAttempt.this.done) {
				if (AcquireAttempt.this.callerLists) {
					AcquireAttempt.this.listingForCaller = this;
				}
				else {
					AcquireAttempt.this.send(() -> AcquireAttempt.this.calls
						.list(ifCurrent((event) -> onPipelinedListing(Listing.of(event)))));
				}
			}
		}

		/** Our node's path once its create returned, else {@code null}. */
		@Nullable String nodePath() {
			return this.ourPath;
		}

		/** Whether the create's reply is still to come (its node, if any, is then deleted on arrival). */
		boolean isCreateInFlight() {
			return this.createInFlight;
		}

		/** Looks at the queue again, once our node exists (after a reconnect, say). */
		void recheck() {
			if (this.ourStat != null && !this.awaitingPipelinedListing) {
				list();
			}
		}

		/** Takes off the watches that have not fired, in the background. */
		void removeWatches() {
			this.watch.removeRemaining();
		}

		/** The grant of this round's node, decided at connection epoch {@code decidedAt}. */
		GrantedNode granted(long decidedAt) {
			return new GrantedNode(ourPath(), this.fencingToken, this.session, decidedAt);
		}

		private void onCreated(CuratorEvent event) {
			this.createInFlight = false;
			String created = event.getName();
			boolean ok = LockNodeCalls.isOk(event) && created != null;
			if (!AcquireAttempt.this.isCurrent(this)) {
				AcquireAttempt.this.createdTooLate(ok ? created : null);
			}
			else if (LockNodeCalls.isNoNode(event) && AcquireAttempt.this.calls.createParentsNext()) {
				// a new lock path: the next round creates it first, whatever the deadline
				AcquireAttempt.this.newRound();
			}
			else if (LockNodeCalls.isNoNode(event) || LockNodeCalls.isConnectionProblem(event)) {
				// a container parent was reaped between its creation and the create, or Curator's
				// retries ran out while the ensemble was away (its protected mode then finds and
				// deletes the node, if there is one): queue again, once connected
				if (AcquireAttempt.this.isPastDeadline()) {
					AcquireAttempt.this.end(null);
				}
				else {
					AcquireAttempt.this.newRound();
				}
			}
			else if (!ok) {
				AcquireAttempt.this.end(LockNodeCalls.failure(event));
			}
			else {
				this.ourPath = created;
				Stat stat = event.getStat();
				if (stat != null && stat.getCzxid() != 0) {
					created(stat);
				}
				else {
					// protected mode adopted a node whose create reply was lost: no Stat came with it
					readOwnStat(created);
				}
			}
		}

		private void readOwnStat(String nodePath) {
			AcquireAttempt.this.send(() -> AcquireAttempt.this.calls.stat(nodePath, ifCurrent(this::onOwnStat)));
		}

		private void onOwnStat(CuratorEvent event) {
			route(event, AcquireAttempt.this::newRound, () -> created(event.getStat()));
		}

		private void created(Stat stat) {
			long sessionId = AcquireAttempt.this.queue.sessionId();
			if (stat.getEphemeralOwner() != sessionId) {
				// a node of an ended session must never count as ours: queue again at the back
				requeue();
				return;
			}
			this.ourStat = stat;
			this.session = sessionId;
			if (!this.awaitingPipelinedListing) {
				evaluateOrList();
			}
		}

		private void onPipelinedListing(Listing listing) {
			this.awaitingPipelinedListing = false;
			this.pipelined = listing;
			if (this.ourStat != null) {
				evaluateOrList();
			}
		}

		/** Decides from the pipelined listing if it contains our node; else lists again. */
		private void evaluateOrList() {
			Listing listing = this.pipelined;
			if (listing != null && listing.isOk() && listing.children().contains(ourName())) {
				evaluate(listing.children(), Objects.requireNonNull(listing.stat(), "a listing that succeeded has a Stat"));
			}
			else {
				list();
			}
		}

		private void list() {
			AcquireAttempt.this.send(() -> AcquireAttempt.this.calls.list(ifCurrent(this::onListing)));
		}

		private void onListing(CuratorEvent event) {
			// NoNode: the parent is gone, so our node is too (it died with its session)
			route(event, this::requeue, () -> evaluate(event.getChildren(), event.getStat()));
		}

		/** Decides from a listing taken after our create; {@code parent}: the lock path's Stat with it. */
		private void evaluate(List<String> children, Stat parent) {
			QueuePosition position = QueuePosition.of(children, ourName());
			if (!position.listed() || AcquireAttempt.this.queue.sessionId() != this.session) {
				// our node died with an expired session (a lagging follower may still list it):
				// queue again at the back with a node of the current session
				requeue();
				return;
			}
			// nodes of our own create that Curator's protected mode left block nothing, and they go
			List<String> duplicates = position.duplicates();
			AcquireAttempt.this.looked(duplicates.isEmpty() ? duplicates
					: duplicates.stream().map(AcquireAttempt.this.calls::lockNodePath).toList());
			if (position.holds()) {
				grantOn(ListingEvidence.of(parent, ourStat().getCzxid()), false);
			}
			else if (AcquireAttempt.this.isPastDeadline()) {
				AcquireAttempt.this.end(null);
			}
			else {
				this.waitingAt = position;
				String blockerPath = AcquireAttempt.this.calls.lockNodePath(position.waitsFor());
				// NoNode: gone before the watch was set, so no event and no zxid to grant on; OK: wait
				this.watch.watch(blockerPath, position.blockerExcludesReaders(), ifCurrentRead(this,
						(rc, data, stat) -> AcquireAttempt.this.route(rc, blockerPath, this::blockerMissed,
								() -> sawBlocker(children, position.waitsFor(), data, stat))));
			}
		}

		/** Notes what the blocker said of its holder, for the message of a wait that runs out. */
		private void sawBlocker(List<String> children, String blocker, byte @Nullable [] data, @Nullable Stat stat) {
			AcquireAttempt.this.queue.sawBlocker(AcquireAttempt.this.calls.basePath(), new BlockerSeen(blocker, data,
					Instant.ofEpochMilli((stat != null) ? stat.getCtime() : 0), QueuePosition.nodesBefore(children, ourName()),
					QueuePosition.first(children), Instant.now()));
		}

		private void blockerMissed() {
			this.watch.missed();
			list();
		}

		/** Routes a reply ({@link AcquireAttempt#route}). */
		private void route(CuratorEvent event, Runnable onNoNode, Runnable onOk) {
			AcquireAttempt.this.route(event.getResultCode(), event.getPath(), onNoNode, onOk);
		}

		/**
		 * Grants without listing when the blocker deleted at zxid {@code zxid} was our only blocker
		 * (handoff without re-listing) or {@code released} after holding (handoff without a listing),
		 * and the session is the one that listed; the zxid is the evidence (a server that sends none
		 * gets a listing). Else lists again.
		 */
		private void blockerGone(String path, long zxid, boolean released) {
			QueuePosition position = this.waitingAt;
			if (position != null && (position.soleBlocker() || released) && zxid > 0
					&& path.equals(AcquireAttempt.this.calls.lockNodePath(position.waitsFor())) && AcquireAttempt.this.queue.sessionId() == this.session) {
				grantOn(zxid, released);
			}
			else {
				list();
			}
		}

		/**
		 * Grants on evidence at zxid {@code evidence}, taking a write of our own node for the token
		 * when the evidence may be another grant's too (docs/lock-protocol.md, "The fencing token").
		 * @param releaseOfLastBlocker whether the evidence is the release after holding of our last
		 * blocker, which only we take
		 */
		private void grantOn(long evidence, boolean releaseOfLastBlocker) {
			this.fencingToken = evidence;
			if (!AcquireAttempt.this.calls.needsOwnWrite(evidence, releaseOfLastBlocker, ourStat())) {
				AcquireAttempt.this.grant();
				return;
			}
			AcquireAttempt.this.send(() -> AcquireAttempt.this.calls.rewrite(ourPath(),
					ifCurrent((event) -> route(event, this::requeue, () -> {
						this.ourStat = event.getStat();
						grantOn(event.getStat().getMzxid(), false);
					}))));
		}

		private void requeue() {
			AcquireAttempt.this.queue.deleteInBackground(this.ourPath);
			AcquireAttempt.this.newRound();
		}

		private BackgroundCallback ifCurrent(Consumer<CuratorEvent> step) {
			return AcquireAttempt.this.ifCurrent(this, step);
		}

		private String ourName() {
			return ZKPaths.getNodeFromPath(ourPath());
		}

		/** Our node's path, for the steps that follow the create's reply. */
		private String ourPath() {
			return Objects.requireNonNull(this.ourPath, "the create's reply sets our node's path first");
		}

		/** Our node's Stat, for the steps that follow its read (a listing is decided only then). */
		private Stat ourStat() {
			return Objects.requireNonNull(this.ourStat, "our node's Stat is read before its listing is decided");
		}

	}

}
