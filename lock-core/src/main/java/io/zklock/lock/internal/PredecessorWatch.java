package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;

/**
 * The data watches one round of an acquire sets on the reader nodes it waits for, and their
 * removal when the round ends without them firing. The watches are set on the ZooKeeper handle
 * itself ({@link RawWatches}), so that their events carry the zxid of the change, the fencing
 * token of a grant decided on them; everything is asynchronous: nothing here blocks.
 *
 * <p>
 * The server keeps one data watch per connection and path, however many watcher objects the
 * client registered on it, and only removing all watchers of the path takes it off the server:
 * the handle's {@link HandleWatches} counts the waiters of every engine on that handle, so that
 * only the last one of a path removes them all. A watch that fires, or that something else removed
 * (its {@code DataWatchRemoved} event), is counted out without a request. Thread-safe.
 */
final class PredecessorWatch {

	private final RawWatches raw;

	/** The watcher registered with ZooKeeper: passes events on with paths inside the namespace. */
	private final Watcher watcher;

	/** The watches set and not fired yet, by path; guarded by this object's monitor. */
	private final Map<String, RawWatches.Registration> pending = new HashMap<>();

	/**
	 * @param client the client the watches are set with
	 * @param watcher receives the watch events of this round
	 */
	PredecessorWatch(CuratorFramework client, Watcher watcher) {
		this.raw = new RawWatches(client);
		this.watcher = this.raw.unfixing(watcher);
	}

	/**
	 * Sets a data watch on {@code path} with {@code getData}; {@code reply} gets the result code:
	 * whether the node still existed (NoNode: no watch was left on the server; call
	 * {@link #fired(String)}), and its data and Stat.
	 */
	void watch(String path, RawWatches.Read reply) {
		synchronized (this) {
			if (this.pending.containsKey(path)) {
				// set already and not fired: the server keeps one watch per path
				this.raw.read(path, reply);
				return;
			}
			// counted before the call: the watch may be set on the server even if the reply is lost
			this.pending.put(path, this.raw.getData(path, this.watcher, reply));
		}
	}

	/** The watch on {@code path} fired, was removed, or was never set: it no longer needs removing. */
	void fired(String path) {
		RawWatches.Registration fired;
		synchronized (this) {
			fired = this.pending.remove(path);
		}
		if (fired != null) {
			fired.forget();
		}
	}

	/** Removes, in the background, the watches that have not fired; later events are ignored by the caller. */
	void removeRemaining() {
		List<RawWatches.Registration> left;
		synchronized (this) {
			if (this.pending.isEmpty()) {
				return;
			}
			left = new ArrayList<>(this.pending.values());
			this.pending.clear();
		}
		left.forEach(RawWatches.Registration::remove);
	}

}
