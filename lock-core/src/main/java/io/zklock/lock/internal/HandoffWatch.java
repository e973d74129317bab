package io.zklock.lock.internal;

import java.util.concurrent.ConcurrentMap;
import java.util.function.IntConsumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.jspecify.annotations.Nullable;

/**
 * The watch a waiting round sets on an exclusive blocker: a persistent watch ({@code addWatch},
 * ZooKeeper 3.6+) on the ZooKeeper handle itself, so that it sees both events of the blocker's
 * release after holding, {@code multi(setData, delete)} ({@link HandoffRelease}), each with its
 * zxid; an {@code exists} right behind it says whether the blocker was still there when the watch
 * was set. A deletion whose zxid is the zxid of the last data change seen is a release after
 * holding (see docs/lock-protocol.md, "Handoff without a listing"). The watch is taken off as soon
 * as the blocker is gone, when the round watches another node, and when the round ends: a
 * persistent watch outlives its node. Like {@link PredecessorWatch}, the waiters of one client
 * count who watches which path, and the last one takes the watch off the server. Watches are
 * removed by type {@code Any}: a ZooKeeper server before 3.9 knows no type {@code Persistent}
 * (ZOOKEEPER-4472) and keeps the watch when asked so; zklock sets no other watch on an exclusive
 * node. Thread-safe.
 */
final class HandoffWatch {

	/** What the round learns from the watch. */
	interface Outcome {

		/**
		 * The watched node was deleted at {@code zxid} (none: {@code 0} or less);
		 * {@code released} whether in a release after holding.
		 */
		void blockerGone(String path, long zxid, boolean released);

	}

	private final CuratorFramework client;

	private final RawWatches raw;

	private final ConcurrentMap<String, Integer> watchersByPath;

	private final Outcome outcome;

	private final Watcher watcher;

	/** The watched path, while its watch may be on the server. */
	private @Nullable String pending;

	/** The zxid of the last data change of the pending path. */
	private long dataChangedAt;

	/** Whether the pending path's deletion was seen. */
	private boolean deleted;

	/**
	 * @param client the client the watches are set with
	 * @param watchersByPath how many persistent watches of this client each path has, shared by
	 * all waiters of one {@link QueueClient}
	 * @param outcome receives the deletion of the watched node, on ZooKeeper's event thread
	 */
	HandoffWatch(CuratorFramework client, ConcurrentMap<String, Integer> watchersByPath, Outcome outcome) {
		this.client = client;
		this.raw = new RawWatches(client);
		this.watchersByPath = watchersByPath;
		this.outcome = outcome;
		this.watcher = this.raw.unfixing(this::onEvent);
	}

	/**
	 * Watches {@code path} (taking off the watch on a node watched before). {@code existed}
	 * gets the {@code exists} reply's result code, unless the deletion was seen first: NoNode
	 * then means the node was gone before the watch was set, with no event to come.
	 */
	void watch(String path, IntConsumer existed) {
		removeRemaining();
		synchronized (this) {
			this.pending = path;
			this.dataChangedAt = 0;
			this.deleted = false;
		}
		this.watchersByPath.merge(path, 1, Integer::sum);
		this.raw.addPersistentWatch(path, this.watcher, (rc) -> {
			// a failure shows in the exists right behind it too (same session, in order)
		});
		this.raw.exists(path, (rc) -> {
			if (!isDeletionSeen(path)) {
				existed.accept(rc);
			}
		});
	}

	/** Takes off the watch, in the background, if one may be on the server. */
	void removeRemaining() {
		String path;
		synchronized (this) {
			path = this.pending;
			this.pending = null;
		}
		if (path == null) {
			return;
		}
		try {
			if (this.watchersByPath.computeIfPresent(path, (p, count) -> (count > 1) ? count - 1 : null) == null) {
				// last watcher of this client on the path: take the watch off the server
				this.client.watchers().removeAll().ofType(Watcher.WatcherType.Any).quietly().inBackground()
					.forPath(path);
			}
			else {
				// others still watch the path: drop only ours, locally
				this.raw.remove(path, this.watcher, Watcher.WatcherType.Any);
			}
		}
		catch (Exception ex) {
			// the client is closing: the server drops the watch with the session
		}
	}

	private synchronized boolean isDeletionSeen(String path) {
		return !path.equals(this.pending) || this.deleted;
	}

	private void onEvent(WatchedEvent event) {
		String path = event.getPath();
		boolean released;
		synchronized (this) {
			if (path == null || !path.equals(this.pending) || this.deleted) {
				return;
			}
			if (event.getType() == EventType.NodeDataChanged) {
				this.dataChangedAt = event.getZxid();
				return;
			}
			if (event.getType() != EventType.NodeDeleted) {
				return;
			}
			this.deleted = true;
			released = event.getZxid() > 0 && event.getZxid() == this.dataChangedAt;
		}
		this.outcome.blockerGone(path, event.getZxid(), released);
		// the node is gone for good: its watch has no more use (a grant has taken it off already)
		removeRemaining();
	}

}
