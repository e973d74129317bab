package io.zklock.lock.internal;


import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.jspecify.annotations.Nullable;

/**
 * The watch a waiting round sets on an exclusive blocker: a persistent watch ({@code addWatch},
 * ZooKeeper 3.6+) on the ZooKeeper handle itself, so that it sees both events of the blocker's
 * release after holding, {@code multi(setData, delete)} ({@link HandoffRelease}), each with its
 * zxid; a read right behind it ({@code getData}, no watch) says whether the blocker was still there
 * when the watch was set, and what it says of its holder. A deletion whose zxid is the zxid of the last data change seen is a release after
 * holding (see docs/lock-protocol.md, "Handoff without a listing"). The watch is taken off as soon
 * as the blocker is gone, when the round watches another node, and when the round ends: a
 * persistent watch outlives its node. The handle's {@link HandleWatches} counts the waiters of
 * every engine on the handle, so that only the last one of a path takes the watch off the server.
 * If something else removes the watch while the round still waits on it (its
 * {@code PersistentWatchRemoved} event), the round is told so, and looks again. Thread-safe.
 */
final class HandoffWatch {

	/** What the round learns from the watch. */
	interface Outcome {

		/**
		 * The watched node was deleted at {@code zxid} (none: {@code 0} or less);
		 * {@code released} whether in a release after holding.
		 */
		void blockerGone(String path, long zxid, boolean released);

		/** The watch on {@code path} was removed by someone else while the round waited on it. */
		void watchRemoved(String path);

	}

	private final RawWatches raw;

	private final Outcome outcome;

	private final Watcher watcher;

	/** The watched path, while its watch may be on the server. */
	private @Nullable String pending;

	/** The pending path's watch. */
	private RawWatches.Registration registration = RawWatches.Registration.NONE;

	/** The zxid of the last data change of the pending path. */
	private long dataChangedAt;

	/** Whether the pending path's deletion was seen. */
	private boolean deleted;

	/**
	 * @param client the client the watches are set with
	 * @param outcome receives the deletion of the watched node, on ZooKeeper's event thread
	 */
	HandoffWatch(CuratorFramework client, Outcome outcome) {
		this.raw = new RawWatches(client);
		this.outcome = outcome;
		this.watcher = this.raw.unfixing(this::onEvent);
	}

	/**
	 * Watches {@code path} (taking off the watch on a node watched before). {@code existed}
	 * gets the reply of the read right behind the watch (its result code, and the node's data and
	 * Stat), unless the deletion was seen first: NoNode then means the node was gone before the
	 * watch was set, with no event to come.
	 */
	void watch(String path, RawWatches.Read existed) {
		removeRemaining();
		synchronized (this) {
			this.pending = path;
			this.dataChangedAt = 0;
			this.deleted = false;
			this.registration = this.raw.addPersistentWatch(path, this.watcher, (rc) -> {
				// a failure shows in the exists right behind it too (same session, in order)
			});
		}
		this.raw.read(path, (rc, data, stat) -> {
			if (!isDeletionSeen(path)) {
				existed.read(rc, data, stat);
			}
		});
	}

	/** Takes off the watch, in the background, if one may be on the server. */
	void removeRemaining() {
		RawWatches.Registration left;
		synchronized (this) {
			left = this.registration;
			this.pending = null;
			this.registration = RawWatches.Registration.NONE;
		}
		left.remove();
	}

	private synchronized boolean isDeletionSeen(String path) {
		return !path.equals(this.pending) || this.deleted;
	}

	private void onEvent(WatchedEvent event) {
		String path = event.getPath();
		EventType type = event.getType();
		boolean released = false;
		synchronized (this) {
			if (path == null || !path.equals(this.pending) || this.deleted) {
				return;
			}
			if (type == EventType.NodeDataChanged) {
				this.dataChangedAt = event.getZxid();
				return;
			}
			if (isRemoval(type)) {
				// our own removal clears pending first: someone else's took our wake-up away
				this.registration.forget();
				this.registration = RawWatches.Registration.NONE;
				this.pending = null;
			}
			else if (type == EventType.NodeDeleted) {
				this.deleted = true;
				released = event.getZxid() > 0 && event.getZxid() == this.dataChangedAt;
			}
			else {
				return;
			}
		}
		if (isRemoval(type)) {
			this.outcome.watchRemoved(path);
			return;
		}
		this.outcome.blockerGone(path, event.getZxid(), released);
		// the node is gone for good: its watch has no more use (a grant has taken it off already)
		removeRemaining();
	}

	private static boolean isRemoval(EventType type) {
		return type == EventType.PersistentWatchRemoved || type == EventType.DataWatchRemoved
				|| type == EventType.ChildWatchRemoved;
	}

}
