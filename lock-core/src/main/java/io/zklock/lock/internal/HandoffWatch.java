package io.zklock.lock.internal;


import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.jspecify.annotations.Nullable;

/**
 * The watch a waiting round sets on an exclusive blocker: a persistent watch ({@code addWatch},
 * ZooKeeper 3.6+) on the ZooKeeper handle itself, so that it sees both events of the blocker's
 * release after holding, {@code multi(setData, delete)} ({@link HandoffRelease}), each with its
 * zxid; a read right behind it ({@code getData}, no watch) says whether the blocker was still there
 * when the watch was set, and what it says of its holder. A deletion whose zxid is the zxid of the last data change seen is a release after
 * holding (see docs/lock-protocol.md, "Handoff without a listing"). The watch is taken off as soon
 * as the blocker is gone, when the round sets another watch (on this node too), and when the
 * round ends: a persistent watch outlives its node. The handle's {@link HandleWatches} counts the waiters of
 * every engine on the handle, so that only the last one of a path takes the watch off the server.
 * Each watch has a watcher of its own ({@link RawWatches.Registration}), and only the events of the
 * watch the round waits on now count: a round that watches the same node again (after a
 * reconnect, a failed read, a listing that finds the same blocker) sets a new watch, and the
 * removal event of the one it took off is dropped, not taken for someone else's (see
 * docs/lock-protocol.md, "Watching the same node again"). If something else removes the current
 * watch (its {@code PersistentWatchRemoved} event), the round is told so, and looks again.
 * Thread-safe.
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

	/** The watch the round waits on, while it may be on the server; guarded by this object's monitor. */
	private @Nullable Watch current;

	/**
	 * @param client the client the watches are set with
	 * @param connectionEvidence hears every event of these watches first (see {@link RawWatches})
	 * @param outcome receives the deletion of the watched node, on ZooKeeper's event thread
	 */
	HandoffWatch(CuratorFramework client, Consumer<WatchedEvent> connectionEvidence, Outcome outcome) {
		this.raw = new RawWatches(client, connectionEvidence);
		this.outcome = outcome;
	}

	/**
	 * Watches {@code path} with a new watch, taking off the one set before (on this path too: its
	 * events, its removal's included, are dropped from then on). {@code existed} gets the reply of
	 * the read right behind the watch (its result code, and the node's data and Stat), unless the
	 * deletion was seen first or the watch was replaced or taken off meanwhile: NoNode then means the
	 * node was gone before the watch was set, with no event to come.
	 */
	void watch(String path, RawWatches.Read existed) {
		removeRemaining();
		Watch watch = new Watch(path);
		synchronized (this) {
			this.current = watch;
			// the registration is in place before any event: events take this monitor too
			watch.registration = this.raw.addPersistentWatch(path, (event) -> onEvent(watch, event), (rc) -> {
				// a failure shows in the read right behind it too (same session, in order)
			});
		}
		this.raw.read(path, (rc, data, stat) -> {
			if (isAwaited(watch)) {
				existed.read(rc, data, stat);
			}
		});
	}

	/** Takes off the watch, in the background, if one may be on the server. */
	void removeRemaining() {
		Watch left;
		synchronized (this) {
			left = this.current;
			this.current = null;
		}
		if (left != null) {
			left.registration.remove();
		}
	}

	/** Whether the round still waits on {@code watch}: it is current and its node's deletion was not seen. */
	private synchronized boolean isAwaited(Watch watch) {
		return watch == this.current && !watch.deleted;
	}

	private void onEvent(Watch watch, WatchedEvent event) {
		EventType type = event.getType();
		boolean released = false;
		synchronized (this) {
			if (event.getPath() == null || !isAwaited(watch)) {
				// a connection event, or an event of a watch taken off or replaced (its removal's
				// too: that watch was counted out when it was taken off)
				return;
			}
			if (type == EventType.NodeDataChanged) {
				watch.dataChangedAt = event.getZxid();
				return;
			}
			if (isRemoval(type)) {
				// someone else took our wake-up away: this watch is off the handle
				watch.registration.forget();
				this.current = null;
			}
			else if (type == EventType.NodeDeleted) {
				watch.deleted = true;
				released = event.getZxid() > 0 && event.getZxid() == watch.dataChangedAt;
			}
			else {
				return;
			}
		}
		if (isRemoval(type)) {
			this.outcome.watchRemoved(watch.path);
			return;
		}
		this.outcome.blockerGone(watch.path, event.getZxid(), released);
		// the node is gone for good: its watch has no more use (a grant has taken it off already)
		removeRemaining();
	}

	private static boolean isRemoval(EventType type) {
		return type == EventType.PersistentWatchRemoved || type == EventType.DataWatchRemoved
				|| type == EventType.ChildWatchRemoved;
	}

	/** One persistent watch of the round on one node, and what its events said. */
	private static final class Watch {

		private final String path;

		/** Set right after the watch is created, before any of its events; guarded by the HandoffWatch's monitor. */
		private RawWatches.Registration registration = RawWatches.Registration.NONE;

		/** The zxid of the last data change of the node seen by this watch. */
		private long dataChangedAt;

		/** Whether this watch saw the node's deletion. */
		private boolean deleted;

		private Watch(String path) {
			this.path = path;
		}

	}

}
