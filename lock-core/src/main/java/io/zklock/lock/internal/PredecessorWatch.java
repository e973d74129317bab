package io.zklock.lock.internal;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;

import java.util.function.IntConsumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;

/**
 * The data watches one round of an acquire sets on the nodes it waits for, and their removal
 * when the round ends without them firing. The watches are set on the ZooKeeper handle itself
 * ({@link RawWatches}), so that their events carry the zxid of the change, the fencing token of
 * a grant decided on them; everything is asynchronous: nothing here blocks.
 *
 * <p>
 * The server keeps one data watch per session and path, however many watcher objects the
 * client registered on it. Removing one watcher object only drops it locally (ZooKeeper sends
 * {@code checkWatches}); only removing all watchers of the path ({@code removeWatches}) takes
 * the watch off the server. So the waiters of one client count who watches which path, and
 * the last one to give up on a path removes all its watches. Thread-safe.
 */
final class PredecessorWatch {

	private final CuratorFramework client;

	private final ConcurrentMap<String, Integer> watchersByPath;

	private final RawWatches raw;

	/** The watcher registered with ZooKeeper: passes events on with paths inside the namespace. */
	private final Watcher watcher;

	private final Set<String> pendingPaths = new HashSet<>();

	/**
	 * @param client the client the watches are set with
	 * @param watchersByPath how many pending watches of this client each path has, shared by
	 * all waiters of one {@link QueueClient}
	 * @param watcher receives the watch events of this round
	 */
	PredecessorWatch(CuratorFramework client, ConcurrentMap<String, Integer> watchersByPath, Watcher watcher) {
		this.client = client;
		this.watchersByPath = watchersByPath;
		this.raw = new RawWatches(client);
		this.watcher = this.raw.unfixing(watcher);
	}

	/**
	 * Sets a data watch on {@code path} with {@code getData}; {@code reply} gets the result code:
	 * whether the node still existed (NoNode: no watch was left on the server; call
	 * {@link #fired(String)}).
	 */
	void watch(String path, IntConsumer reply) {
		// noted before the call: the watch may be set on the server even if the reply is lost
		synchronized (this) {
			if (this.pendingPaths.add(path)) {
				this.watchersByPath.merge(path, 1, Integer::sum);
			}
		}
		this.raw.getData(path, this.watcher, reply);
	}

	/** The watch on {@code path} fired, or was never set: it no longer needs removing. */
	void fired(String path) {
		synchronized (this) {
			if (!this.pendingPaths.remove(path)) {
				return;
			}
		}
		forget(path);
	}

	/** Removes, in the background, the watches that have not fired; later events are ignored by the caller. */
	void removeRemaining() {
		Set<String> paths;
		synchronized (this) {
			if (this.pendingPaths.isEmpty()) {
				return;
			}
			paths = new HashSet<>(this.pendingPaths);
			this.pendingPaths.clear();
		}
		for (String path : paths) {
			try {
				if (forget(path)) {
					// last watcher of this client on the path: take the watch off the server
					this.client.watchers().removeAll().ofType(Watcher.WatcherType.Data).quietly().inBackground()
						.forPath(path);
				}
				else {
					// others still wait on the path: drop only ours, locally
					this.raw.remove(path, this.watcher, Watcher.WatcherType.Data);
				}
			}
			catch (Exception ex) {
				// the client is closing: the server drops the watch with the session
			}
		}
	}

	/** Counts one pending watch on {@code path} less; {@code true} if it was the last. */
	private boolean forget(String path) {
		return this.watchersByPath.computeIfPresent(path, (p, count) -> (count > 1) ? count - 1 : null) == null;
	}

}
