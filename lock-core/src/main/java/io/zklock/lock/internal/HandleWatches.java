package io.zklock.lock.internal;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * The waiters' watches on one ZooKeeper handle, whichever engine of this JVM they belong to: how
 * many watches, each with a watcher object of its own, may be on each path, and the requests
 * that set and remove them, sent in the order the count moves (see docs/lock-protocol.md,
 * "Watches that several waiters share on one ZooKeeper handle"). The server keeps one watch per connection and path however many
 * watchers the handle registered; only removing every watcher of the path takes it off the
 * server, and that drops the watchers of every other waiter too. So only the last waiter of a
 * path removes them all, the others drop their own; and since counting and sending happen under
 * one lock, a watch set after the last removal is set after it on the server and in the handle
 * alike. Removals are local too ({@code local = true}): the handle drops the watchers even without
 * a connection, so its next connection never sets a watch that a waiter gave up. Paths are the
 * handle's own (with the namespace). Thread-safe.
 */
final class HandleWatches {

	/** One per handle; a handle Curator replaced (its session ended) goes with its watches. */
	private static final Map<ZooKeeper, HandleWatches> byHandle = Collections.synchronizedMap(new WeakHashMap<>());

	private static final AsyncCallback.VoidCallback IGNORED = (rc, path, ctx) -> {
	};

	/** Watches that may be on each path; guarded by this object's monitor. */
	private final Map<String, Integer> watchers = new HashMap<>();

	private HandleWatches() {
	}

	/** The watches of {@code zooKeeper}, shared by every waiter that uses it. */
	static HandleWatches of(ZooKeeper zooKeeper) {
		return byHandle.computeIfAbsent(zooKeeper, (handle) -> new HandleWatches());
	}

	/**
	 * Counts one more watch on {@code path} and sends the request that sets it,
	 * under the count's lock; {@code request} must only send (an asynchronous call).
	 */
	synchronized void set(String path, Runnable request) {
		this.watchers.merge(path, 1, Integer::sum);
		request.run();
	}

	/** A watch on {@code path} fired or was removed by someone else: counts it out, sends nothing. */
	synchronized void forget(String path) {
		countOut(path);
	}

	/**
	 * Removes {@code watcher} from {@code path}: the last watch of the path removes every watch of
	 * the handle there (from the server too), the others drop their own watcher in the handle.
	 * Failures are ignored: without a connection the watchers are dropped locally, and the server
	 * dropped the connection's watches with it.
	 */
	synchronized void remove(ZooKeeper zooKeeper, String path, Watcher watcher) {
		if (countOut(path)) {
			zooKeeper.removeAllWatches(path, Watcher.WatcherType.Any, true, IGNORED, null);
		}
		else {
			zooKeeper.removeWatches(path, watcher, Watcher.WatcherType.Any, true, IGNORED, null);
		}
	}

	/** Counts one watch of {@code path} out; {@code true} if none is left. */
	private boolean countOut(String path) {
		return this.watchers.computeIfPresent(path, (p, count) -> (count > 1) ? count - 1 : null) == null;
	}

}
