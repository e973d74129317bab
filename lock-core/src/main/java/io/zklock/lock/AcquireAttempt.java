package io.zklock.lock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One acquire of one lock path, driven by ZooKeeper replies and watch events: the lock recipe
 * of the ZooKeeper documentation ("Recipes and Solutions: Locks", and its shared-lock
 * variant), as Curator's {@code LockInternals} runs it, with the ownership check, the fencing
 * token and two fast paths.
 *
 * <ol>
 * <li>Create one protected {@code EPHEMERAL_SEQUENTIAL} node under CONTAINER parents; its
 * {@code czxid}, from the create's reply, is the fencing token; its {@code ephemeralOwner} must
 * be the current session. On a connected client the {@code getChildren} of the lock path is
 * sent right behind the create, without waiting for its reply (<em>pipelined acquire</em>):
 * ZooKeeper applies a session's requests in order and parks a read behind the session's
 * pending writes (ZOOKEEPER-2024), so that listing is taken after the create. It is used only
 * if it contains our node; otherwise (the client was not connected, Curator re-queued either
 * call, the parent was missing) the lock path is listed again once the create returned.</li>
 * <li>If nothing blocks us in the listing, we hold the lock. Otherwise watch only the blocking
 * node (immediate predecessor, or for a reader the last smaller node that excludes readers)
 * with {@code getData}, and wait.</li>
 * <li>When the watched node is deleted (or was already gone when the watch was set) and it
 * was the only node blocking us in our last listing, taken after our create, and the session
 * is unchanged since, we hold the lock without listing again (<em>handoff without
 * re-listing</em>): sequence numbers only grow while the parent exists, and the parent cannot
 * be reaped while our node is in it, so nothing can block us now. In every other case, list
 * again and go back to 2.</li>
 * </ol>
 *
 * Every call is sent with Curator's background API, so no thread blocks inside ZooKeeper's
 * client; the waiting caller parks on {@link #outcome()}. A round whose node turns out not to
 * be ours (an expired session, a stale follower's listing) deletes it and queues again at the
 * back. Giving up ({@link #abandon()}, {@link #fail(Exception)}) deletes our node, also one
 * whose create reply is still to come, and removes the watches left. Thread-safe: all state
 * is guarded by one {@link ReentrantLock}.
 */
final class AcquireAttempt {

	private final LockNodeQueue queue;

	private final String basePath;

	private final LockMode mode;

	private final Deadline deadline;

	private final CompletableFuture<@Nullable GrantedNode> outcome = new CompletableFuture<>();

	private final CompletableFuture<@Nullable Void> cleanedUp = new CompletableFuture<>();

	private final ReentrantLock lock = new ReentrantLock();

	// all fields below are guarded by lock

	private int round;

	private boolean done;

	private boolean createInFlight;

	private @Nullable String ourPath;

	private @Nullable Stat ourStat;

	private long session;

	private boolean awaitingPipelinedListing;

	private @Nullable List<String> pipelinedListing;

	private @Nullable PredecessorWatch watch;

	private @Nullable String blockerPath;

	private boolean soleBlocker;

	private long listingSession;

	/**
	 * @param deadline the acquire's own deadline: a round that finds the lock busy after it
	 * passed gives up at once (a zero wait still completes its create and listing)
	 */
	AcquireAttempt(LockNodeQueue queue, String basePath, LockMode mode, Deadline deadline) {
		this.queue = queue;
		this.basePath = basePath;
		this.mode = mode;
		this.deadline = deadline;
	}

	/** Completes with the granted node, or {@code null} once given up; exceptionally on failure. */
	CompletableFuture<@Nullable GrantedNode> outcome() {
		return this.outcome;
	}

	/**
	 * Completes once an attempt that ended without a grant has no node left: its delete was
	 * answered, or it never had one.
	 */
	CompletableFuture<@Nullable Void> cleanedUp() {
		return this.cleanedUp;
	}

	void start() {
		this.lock.lock();
		try {
			newRound();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Gives up: deletes our node (at once, or when its create reply arrives) and removes our
	 * watches, all in the background.
	 * @return the granted node if the grant won the race, else {@code null}
	 */
	@Nullable GrantedNode abandon() {
		this.lock.lock();
		try {
			if (this.done) {
				return this.outcome.isCompletedExceptionally() ? null : this.outcome.getNow(null);
			}
			finish();
			this.outcome.complete(null);
			return null;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Gives up with an error, leaving nothing behind. */
	void fail(Exception error) {
		this.lock.lock();
		try {
			if (!this.done) {
				finish();
				this.outcome.completeExceptionally(error);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * A connection signal: after a reconnect, look at the queue again (a watch may have been
	 * lost with an expired session, and our node with it). While disconnected, a waiter just
	 * waits: nothing is sent that Curator's retries could give up on.
	 */
	void onSignal(SessionGuard.Signal signal) {
		if (signal != SessionGuard.Signal.RECONNECTED) {
			return;
		}
		this.lock.lock();
		try {
			if (!this.done && this.ourStat != null && !this.awaitingPipelinedListing) {
				list(this.round);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	// --- the protocol; every method below runs with the lock held ---

	private void newRound() {
		if (this.watch != null) {
			this.watch.removeRemaining();
		}
		int current = ++this.round;
		this.ourPath = null;
		this.ourStat = null;
		this.pipelinedListing = null;
		this.blockerPath = null;
		this.watch = new PredecessorWatch(this.queue.client(), this.queue.watchersByPath(),
				(event) -> onWatchEvent(current, event));
		boolean pipelined = this.queue.isConnected();
		this.awaitingPipelinedListing = pipelined;
		this.createInFlight = true;
		try {
			this.queue.client()
				.create()
				.creatingParentContainersIfNeeded()
				.withProtection()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.inBackground((client, event) -> onCreated(current, event))
				.forPath(ZKPaths.makePath(this.basePath, this.mode.nodeMarker()), this.queue.nodeData());
			if (pipelined) {
				this.queue.client()
					.getChildren()
					.inBackground((client, event) -> onPipelinedListing(current, event))
					.forPath(this.basePath);
			}
		}
		catch (Exception ex) {
			failLocked(ex);
		}
	}

	private void onCreated(int round, CuratorEvent event) {
		this.lock.lock();
		try {
			String created = event.getName();
			boolean ok = event.getResultCode() == KeeperException.Code.OK.intValue() && created != null;
			if (round == this.round) {
				this.createInFlight = false;
			}
			if (this.done || round != this.round) {
				if (ok) {
					this.queue.deleteInBackground(created, this.cleanedUp);
				}
				else {
					// Curator's protected mode finds and deletes a node whose create failed for good
					this.cleanedUp.complete(null);
				}
				return;
			}
			if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
				// a container parent was reaped between Curator's creation of the parents and the
				// create: queue again, which creates them again
				newRound();
				return;
			}
			if (!ok) {
				failLocked(LockNodeQueue.failure(event.getResultCode(), event.getPath()));
				return;
			}
			this.ourPath = created;
			Stat stat = event.getStat();
			if (stat == null || stat.getCzxid() == 0) {
				// protected mode adopted a node whose create reply was lost: no Stat came with it
				this.queue.client().checkExists().inBackground((client, reply) -> onOwnStat(round, reply))
					.forPath(created);
				return;
			}
			created(stat);
		}
		catch (Exception ex) {
			failLocked(ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void onOwnStat(int round, CuratorEvent event) {
		this.lock.lock();
		try {
			if (this.done || round != this.round) {
				return;
			}
			if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
				newRound();
			}
			else if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
				failLocked(LockNodeQueue.failure(event.getResultCode(), event.getPath()));
			}
			else {
				created(event.getStat());
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void created(Stat stat) {
		long sessionId = this.queue.sessionId();
		if (stat.getEphemeralOwner() != sessionId) {
			// a node of an ended session must never count as ours: queue again at the back
			this.queue.deleteInBackground(this.ourPath);
			newRound();
			return;
		}
		this.ourStat = stat;
		this.session = sessionId;
		if (this.awaitingPipelinedListing) {
			return;
		}
		List<String> pipelined = this.pipelinedListing;
		if (pipelined != null && pipelined.contains(ourName())) {
			evaluate(pipelined);
		}
		else {
			list(this.round);
		}
	}

	private void onPipelinedListing(int round, CuratorEvent event) {
		this.lock.lock();
		try {
			if (this.done || round != this.round) {
				return;
			}
			this.awaitingPipelinedListing = false;
			List<String> children = (event.getResultCode() == KeeperException.Code.OK.intValue())
					? event.getChildren() : null;
			this.pipelinedListing = children;
			if (this.ourStat == null) {
				return;
			}
			if (children != null && children.contains(ourName())) {
				evaluate(children);
			}
			else {
				list(round);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void list(int round) {
		try {
			this.queue.client().getChildren().inBackground((client, event) -> onListing(round, event))
				.forPath(this.basePath);
		}
		catch (Exception ex) {
			failLocked(ex);
		}
	}

	private void onListing(int round, CuratorEvent event) {
		this.lock.lock();
		try {
			if (this.done || round != this.round) {
				return;
			}
			if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
				// the parent is gone, so our node is too (it died with its session)
				this.queue.deleteInBackground(this.ourPath);
				newRound();
			}
			else if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
				failLocked(LockNodeQueue.failure(event.getResultCode(), event.getPath()));
			}
			else {
				evaluate(event.getChildren());
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void evaluate(List<String> children) {
		List<LockNodeName> nodes = LockNodeName.sortedLockNodes(children);
		int index = LockNodeName.indexOf(nodes, ourName());
		if (index < 0 || this.queue.sessionId() != this.session) {
			// our node died with an expired session (a lagging follower may still list it):
			// queue again at the back with a node of the current session
			this.queue.deleteInBackground(this.ourPath);
			newRound();
			return;
		}
		LockNodeName blocker = LockNodeName.blocker(nodes, index);
		if (blocker == null) {
			grant();
			return;
		}
		if (this.deadline.hasPassed()) {
			giveUp();
			return;
		}
		this.blockerPath = ZKPaths.makePath(this.basePath, blocker.name());
		this.soleBlocker = LockNodeName.blockerCount(nodes, index) == 1;
		this.listingSession = this.session;
		int current = this.round;
		String watched = this.blockerPath;
		try {
			this.watch.watch(watched, (client, event) -> onWatchSet(current, watched, event));
		}
		catch (Exception ex) {
			failLocked(ex);
		}
	}

	private void onWatchSet(int round, String path, CuratorEvent event) {
		this.lock.lock();
		try {
			if (this.done || round != this.round) {
				return;
			}
			if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
				this.watch.fired(path);
				blockerGone(path);
			}
			else if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
				failLocked(LockNodeQueue.failure(event.getResultCode(), path));
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void onWatchEvent(int round, WatchedEvent event) {
		if (event.getType() == Watcher.Event.EventType.None) {
			// connection events: the session guard's signals handle them
			return;
		}
		this.lock.lock();
		try {
			if (event.getPath() != null && this.watch != null && round == this.round) {
				this.watch.fired(event.getPath());
			}
			if (this.done || round != this.round) {
				return;
			}
			if (event.getType() == Watcher.Event.EventType.NodeDeleted && event.getPath() != null
					&& event.getPath().equals(this.blockerPath)) {
				blockerGone(event.getPath());
			}
			else {
				// a data change (say Curator's revocation request) consumed the watch: look again
				list(round);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void blockerGone(String path) {
		if (this.soleBlocker && path.equals(this.blockerPath) && this.queue.sessionId() == this.listingSession) {
			grant();
		}
		else {
			list(this.round);
		}
	}

	private void grant() {
		long decidedAt = this.queue.epoch();
		this.done = true;
		if (this.watch != null) {
			this.watch.removeRemaining();
		}
		this.outcome.complete(new GrantedNode(this.ourPath, this.ourStat.getCzxid(), this.session, decidedAt));
	}

	private void giveUp() {
		finish();
		this.outcome.complete(null);
	}

	private void failLocked(Exception error) {
		finish();
		this.outcome.completeExceptionally(error);
	}

	/** Ends the attempt without a grant: our node and watches go, in the background. */
	private void finish() {
		this.done = true;
		if (this.watch != null) {
			this.watch.removeRemaining();
		}
		if (this.ourPath != null) {
			this.queue.deleteInBackground(this.ourPath, this.cleanedUp);
		}
		else if (!this.createInFlight) {
			this.cleanedUp.complete(null);
		}
		// else: a create still in flight is deleted when its reply arrives (see onCreated)
	}

	private String ourName() {
		return ZKPaths.getNodeFromPath(this.ourPath);
	}

}
