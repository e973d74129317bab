package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The data watches one round of an acquire sets on the reader nodes it waits for, and their
 * removal when the round ends without them firing. The watches are set on the ZooKeeper handle
 * itself ({@link RawWatches}), so that their events carry the zxid of the change, the fencing
 * token of a grant decided on them; everything is asynchronous: nothing here blocks.
 *
 * <p>
 * The server keeps one data watch per connection and path, however many watcher objects the
 * client registered on it, and only removing all watchers of the path takes it off the server:
 * the handle's {@link HandleWatches} counts the watches of every engine on that handle, so that
 * only the last one of a path removes them all. A watch that fires, or that something else removed
 * (its {@code DataWatchRemoved} event), is counted out without a request. Each watch has a watcher
 * of its own ({@link RawWatches.Registration}): watching a path again takes off the watch set
 * before and sets a new one, since the first may have been lost with its connection (a
 * {@code getData} whose reply did not come leaves no watcher in the handle and no watch on the
 * server); the replaced watch's reply and events are dropped from then on (see
 * docs/lock-protocol.md, "Watching the same node again"). Thread-safe.
 */
final class PredecessorWatch {

	private final RawWatches raw;

	/** Receives the events of the watches the round waits on, with paths inside the namespace. */
	private final Watcher target;

	/** The watches set and not fired, taken off or replaced yet, by path; guarded by this object's monitor. */
	private final Map<String, Watch> pending = new HashMap<>();

	/**
	 * @param client the client the watches are set with
	 * @param connectionEvidence hears every event of these watches first (see {@link RawWatches})
	 * @param target receives the events of the watches the round waits on (not those of a watch
	 * taken off or replaced, nor connection events)
	 */
	PredecessorWatch(CuratorFramework client, Consumer<WatchedEvent> connectionEvidence, Watcher target) {
		this.raw = new RawWatches(client, connectionEvidence);
		this.target = target;
	}

	/**
	 * Sets a data watch on {@code path} with {@code getData}, taking off one set there before;
	 * {@code reply} gets the result code unless the watch was replaced or taken off meanwhile:
	 * whether the node still existed (NoNode: no watch was left on the server), and its data and
	 * Stat.
	 */
	void watch(String path, RawWatches.Read reply) {
		Watch watch = new Watch(path);
		synchronized (this) {
			Watch replaced = this.pending.put(path, watch);
			if (replaced != null) {
				// it may have been lost with its connection: set a new one rather than trust it
				replaced.registration.remove();
			}
			// counted before the call: the watch may be set on the server even if the reply is lost
			watch.registration = this.raw.getData(path, (event) -> onEvent(watch, event),
					(rc, data, stat) -> onReply(watch, rc, data, stat, reply));
		}
	}

	/** Removes, in the background, the watches that have not fired; later events are dropped. */
	void removeRemaining() {
		List<Watch> left;
		synchronized (this) {
			if (this.pending.isEmpty()) {
				return;
			}
			left = new ArrayList<>(this.pending.values());
			this.pending.clear();
		}
		left.forEach((watch) -> watch.registration.remove());
	}

	private void onReply(Watch watch, int resultCode, byte @Nullable [] data,
			@Nullable Stat stat, RawWatches.Read reply) {
		synchronized (this) {
			if (this.pending.get(watch.path) != watch) {
				// replaced (the new watch's reply tells) or taken off
				return;
			}
			if (resultCode == KeeperException.Code.NONODE.intValue()) {
				// a getData on a missing node leaves no watch
				this.pending.remove(watch.path);
				watch.registration.forget();
			}
		}
		reply.read(resultCode, data, stat);
	}

	private void onEvent(Watch watch, WatchedEvent event) {
		if (event.getType() == EventType.None || event.getPath() == null) {
			// connection events reach every watcher: the session guard's signals handle them
			return;
		}
		synchronized (this) {
			if (this.pending.get(watch.path) != watch) {
				// a watch taken off or replaced, counted out then: its removal's event too
				return;
			}
			this.pending.remove(watch.path);
		}
		// a one-shot watch: it fired, or something else removed it
		watch.registration.forget();
		this.target.process(event);
	}

	/** One data watch of the round on one node. */
	private static final class Watch {

		private final String path;

		/** Set right after the watch is created, before its reply or events; guarded by the PredecessorWatch's monitor. */
		private RawWatches.Registration registration = RawWatches.Registration.NONE;

		private Watch(String path) {
			this.path = path;
		}

	}

}
