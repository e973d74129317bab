package io.zklock.lock;

import java.util.HashSet;
import java.util.Set;
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
 */
final class PredecessorWatch implements Watcher {

	private final CuratorFramework client;

	private final Set<String> pendingPaths = new HashSet<>();

	private boolean signalled;

	PredecessorWatch(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * Watches {@code path}.
	 * @return {@code false} if the node is already gone (no watch is then left on the server)
	 */
	boolean watch(String path) throws Exception {
		try {
			this.client.getData().usingWatcher(this).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return false;
		}
		synchronized (this) {
			this.pendingPaths.add(path);
		}
		return true;
	}

	@Override
	public void process(WatchedEvent event) {
		synchronized (this) {
			if (event.getType() != Event.EventType.None && event.getPath() != null) {
				this.pendingPaths.remove(event.getPath());
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
		for (String path : paths) {
			try {
				this.client.watchers().remove(this).ofType(WatcherType.Data).quietly().forPath(path);
			}
			catch (Exception ex) {
				// the connection is gone: the server drops the watch with the session, and
				// Curator removes it locally once it fires
			}
		}
	}

}
