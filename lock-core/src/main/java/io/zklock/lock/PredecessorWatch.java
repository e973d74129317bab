package io.zklock.lock;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * The one data watch a waiter keeps on the node it waits for. One instance serves a whole
 * acquire, so re-watching after a connection event does not stack watchers, and
 * {@link #removeRemaining()} takes off whatever is still registered on the server when the
 * waiter gives up.
 *
 * <p>
 * The server keeps one data watch per session and path, however many watcher objects the
 * client registered on it. Removing one watcher object only drops it locally (ZooKeeper sends
 * {@code checkWatches}); only removing all watchers of the path ({@code removeWatches}) takes
 * the watch off the server. So the waiters of one queue count who watches which path, and the
 * last one to give up on a path removes all its watches.
 */
final class PredecessorWatch implements Watcher {

	private final CuratorFramework client;

	private final ConcurrentMap<String, Integer> watchersByPath;

	private final Set<String> pendingPaths = new HashSet<>();

	private boolean signalled;

	/**
	 * @param client the client the watch is set with
	 * @param watchersByPath how many pending watches of this client each path has, shared by
	 * all waiters of one {@link LockNodeQueue}
	 */
	PredecessorWatch(CuratorFramework client, ConcurrentMap<String, Integer> watchersByPath) {
		this.client = client;
		this.watchersByPath = watchersByPath;
	}

	/**
	 * Watches {@code path}.
	 * @return {@code false} if the node is already gone (no watch is then left on the server)
	 */
	boolean watch(String path) throws Exception {
		// noted before the call: a call cut off by its deadline may still set the watch, which
		// removeRemaining() then takes off
		synchronized (this) {
			if (this.pendingPaths.add(path)) {
				this.watchersByPath.merge(path, 1, Integer::sum);
			}
		}
		try {
			this.client.getData().usingWatcher(this).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			synchronized (this) {
				if (this.pendingPaths.remove(path)) {
					forget(path);
				}
			}
			return false;
		}
		return true;
	}

	@Override
	public void process(WatchedEvent event) {
		synchronized (this) {
			if (event.getType() != Event.EventType.None && event.getPath() != null
					&& this.pendingPaths.remove(event.getPath())) {
				forget(event.getPath());
			}
			this.signalled = true;
			notifyAll();
		}
	}

	/**
	 * Waits until an event arrives or {@code nanos} pass.
	 * @return {@code true} if an event arrived
	 */
	synchronized boolean await(long nanos) throws InterruptedException {
		long deadline = System.nanoTime() + nanos;
		while (!this.signalled) {
			long left = deadline - System.nanoTime();
			if (nanos != Long.MAX_VALUE && left <= 0) {
				return false;
			}
			if (nanos == Long.MAX_VALUE) {
				wait();
			}
			else {
				TimeUnit.NANOSECONDS.timedWait(this, left);
			}
		}
		this.signalled = false;
		return true;
	}

	/** Removes the server-side watches that have not fired yet; a watch that fires meanwhile is ignored. */
	void removeRemaining() {
		Set<String> paths;
		synchronized (this) {
			paths = new HashSet<>(this.pendingPaths);
			this.pendingPaths.clear();
		}
		if (paths.isEmpty()) {
			return;
		}
		// an interrupted waiter must still take its watch off: ZooKeeper calls fail at once
		// while the flag is set, so clear it for the removal and set it again afterwards
		boolean interrupted = Thread.interrupted();
		try {
			removeWatches(paths);
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void removeWatches(Set<String> paths) {
		for (String path : paths) {
			try {
				if (forget(path)) {
					// last watcher of this queue on the path: take the watch off the server
					this.client.watchers().removeAll().ofType(WatcherType.Data).quietly().forPath(path);
				}
				else {
					// others still wait on the path: drop only ours, locally
					this.client.watchers().remove(this).ofType(WatcherType.Data).quietly().forPath(path);
				}
			}
			catch (Exception ex) {
				// the connection is gone: the server drops the watch with the session, and
				// Curator removes it locally once it fires
			}
		}
	}

	/** Counts one pending watch on {@code path} less; {@code true} if it was the last. */
	private boolean forget(String path) {
		return this.watchersByPath.computeIfPresent(path, (p, count) -> (count > 1) ? count - 1 : null) == null;
	}

}
