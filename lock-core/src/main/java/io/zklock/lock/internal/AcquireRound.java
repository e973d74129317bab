package io.zklock.lock.internal;

import java.util.List;
import java.util.function.Consumer;

import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One round of an {@link AcquireAttempt}: the protocol steps of one lock node, from its create
 * to the grant, driven by ZooKeeper replies and watch events (see {@link AcquireAttempt} for the
 * protocol). A round that finds its node is not ours any more asks the attempt for a new round.
 * Every method runs under the attempt's lock; replies and events of a round that is no longer
 * current are ignored. A round knows its attempt only as a {@link RoundOwner}.
 */
final class AcquireRound {

	private final RoundOwner<AcquireRound> attempt;

	private final QueueClient queue;

	private final LockNodeCalls calls;

	private final BlockerWatch watch;

	private boolean started;

	private boolean createInFlight;

	private @Nullable String ourPath;

	private @Nullable Stat ourStat;

	private long session;

	private boolean awaitingPipelinedListing;

	private @Nullable CuratorEvent pipelined;

	/** The fencing token of the grant: the zxid of its evidence (docs/lock-protocol.md). */
	private long fencingToken;

	private @Nullable QueuePosition waitingAt;

	AcquireRound(RoundOwner<AcquireRound> attempt, QueueClient queue, LockNodeCalls calls) {
		this.attempt = attempt;
		this.queue = queue;
		this.calls = calls;
		this.watch = new BlockerWatch(queue, (step) -> attempt.locked(() -> {
			if (attempt.isCurrent(this)) {
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
		this.awaitingPipelinedListing = this.queue.isConnected();
		this.attempt.send(() -> this.calls.create((client, event) -> this.attempt.locked(() -> onCreated(event))));
		if (this.awaitingPipelinedListing) {
			this.attempt.send(() -> this.calls.list(ifCurrent(this::onPipelinedListing)));
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
		return new GrantedNode(this.ourPath, this.fencingToken, this.session, decidedAt);
	}

	private void onCreated(CuratorEvent event) {
		this.createInFlight = false;
		String created = event.getName();
		boolean ok = LockNodeCalls.isOk(event) && created != null;
		if (!this.attempt.isCurrent(this)) {
			this.attempt.createdTooLate(ok ? created : null);
		}
		else if (LockNodeCalls.isNoNode(event) && this.calls.createParentsNext()) {
			// a new lock path: the next round creates it first, whatever the deadline
			this.attempt.newRound();
		}
		else if (LockNodeCalls.isNoNode(event) || LockNodeCalls.isConnectionProblem(event)) {
			// a container parent was reaped between its creation and the create, or Curator's
			// retries ran out while the ensemble was away (its protected mode then finds and
			// deletes the node, if there is one): queue again, once connected
			if (this.attempt.isPastDeadline()) {
				this.attempt.end(null);
			}
			else {
				this.attempt.newRound();
			}
		}
		else if (!ok) {
			this.attempt.end(LockNodeCalls.failure(event));
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
		this.attempt.send(() -> this.calls.stat(nodePath, ifCurrent(this::onOwnStat)));
	}

	private void onOwnStat(CuratorEvent event) {
		route(event, this.attempt::newRound, () -> created(event.getStat()));
	}

	private void created(Stat stat) {
		long sessionId = this.queue.sessionId();
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

	private void onPipelinedListing(CuratorEvent event) {
		this.awaitingPipelinedListing = false;
		this.pipelined = event;
		if (this.ourStat != null) {
			evaluateOrList();
		}
	}

	/** Decides from the pipelined listing if it contains our node; else lists again. */
	private void evaluateOrList() {
		CuratorEvent listing = this.pipelined;
		if (listing != null && LockNodeCalls.isOk(listing) && listing.getChildren().contains(ourName())) {
			evaluate(listing.getChildren(), listing.getStat());
		}
		else {
			list();
		}
	}

	private void list() {
		this.attempt.send(() -> this.calls.list(ifCurrent(this::onListing)));
	}

	private void onListing(CuratorEvent event) {
		// NoNode: the parent is gone, so our node is too (it died with its session)
		route(event, this::requeue, () -> evaluate(event.getChildren(), event.getStat()));
	}

	/** Decides from a listing taken after our create; {@code parent}: the lock path's Stat with it. */
	private void evaluate(List<String> children, Stat parent) {
		QueuePosition position = QueuePosition.of(children, ourName());
		if (!position.listed() || this.queue.sessionId() != this.session) {
			// our node died with an expired session (a lagging follower may still list it):
			// queue again at the back with a node of the current session
			requeue();
			return;
		}
		// nodes of our own create that Curator's protected mode left block nothing, and they go
		List<String> duplicates = position.duplicates();
		this.attempt.looked(duplicates.isEmpty() ? duplicates : duplicates.stream().map(this.calls::lockNodePath).toList());
		if (position.holds()) {
			grantOn(ListingEvidence.of(parent, this.ourStat.getCzxid()), false);
		}
		else if (this.attempt.isPastDeadline()) {
			this.attempt.end(null);
		}
		else {
			this.waitingAt = position;
			String blockerPath = this.calls.lockNodePath(position.blocker());
			// NoNode: gone before the watch was set, so no event and no zxid to grant on; OK: wait
			this.watch.watch(blockerPath, position.blockerExcludesReaders(), this.attempt.ifCurrentCode(this,
					(rc) -> this.attempt.route(rc, blockerPath, () -> blockerMissed(blockerPath), () -> {
					})));
		}
	}

	private void blockerMissed(String path) {
		this.watch.missed(path);
		list();
	}

	/** Routes a reply ({@link RoundOwner#route}). */
	private void route(CuratorEvent event, Runnable onNoNode, Runnable onOk) {
		this.attempt.route(event.getResultCode(), event.getPath(), onNoNode, onOk);
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
				&& path.equals(this.calls.lockNodePath(position.blocker())) && this.queue.sessionId() == this.session) {
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
		if (!this.calls.needsOwnWrite(evidence, releaseOfLastBlocker, this.ourStat)) {
			this.attempt.grant();
			return;
		}
		this.attempt.send(() -> this.calls.rewrite(this.ourPath,
				ifCurrent((event) -> route(event, this::requeue, () -> {
					this.ourStat = event.getStat();
					grantOn(event.getStat().getMzxid(), false);
				}))));
	}

	private void requeue() {
		this.queue.deleteInBackground(this.ourPath);
		this.attempt.newRound();
	}

	private BackgroundCallback ifCurrent(Consumer<CuratorEvent> step) {
		return this.attempt.ifCurrent(this, step);
	}

	private String ourName() {
		return ZKPaths.getNodeFromPath(this.ourPath);
	}

}
