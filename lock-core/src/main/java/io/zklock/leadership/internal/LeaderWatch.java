package io.zklock.leadership.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeadershipException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads who leads a role for one candidacy and keeps a watch that says when to read again: on the
 * leader's node (its deletion means a new leader), or, while the role has no candidate, on the
 * role's lock path and its children. Each read lists the role and reads each node's data on the
 * election's ZooKeeper-read thread, and reports what it found; it is never inferred from events.
 * Any event of the watch reads again, a removal too: the lock engine takes its own watch of a node
 * off the server with every watcher of the client on it (ZooKeeper keeps one watch per connection
 * and path), ours included. For the same reason {@link #close()} removes every watcher of the paths
 * it watched ({@code removeAllWatches}, local too, so a later reconnect sets none again): a waiter of
 * the engine that loses its watch that way looks at its queue again. Thread-safe.
 */
final class LeaderWatch implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LeaderWatch.class);

	/** A lock node of any mode, zklock's or Curator's: a name ending in a mode marker and ten digits. */
	private static final Pattern LOCK_NODE = Pattern.compile(".*(-lock-|__READ__|__WRIT__)\\d{10}");

	/** Told what a read found. */
	interface Observer {

		/**
		 * @param leader the role's leader, or {@code null} if it has no candidate
		 * @param candidates every candidate, the leader first
		 */
		void observed(@Nullable Candidate leader, List<Candidate> candidates);

	}

	private final ElectionContext context;

	private final String role;

	private final String rolePath;

	private final Observer observer;

	private final CuratorFramework client;

	/** The paths a watch was set on, inside the namespace. */
	private final Set<String> watched = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean queued = new AtomicBoolean();

	private final CuratorWatcher watcher = (event) -> {
		if (event.getType() == Watcher.Event.EventType.None) {
			return;
		}
		if (event.getType() == Watcher.Event.EventType.NodeDeleted && event.getPath() != null) {
			// a watch that fired is off the server: nothing to remove there at close
			this.watched.remove(event.getPath());
		}
		refresh();
	};

	private volatile boolean closed;

	LeaderWatch(ElectionContext context, String role, Observer observer) {
		this.context = context;
		this.role = role;
		this.rolePath = context.rolePath(role);
		this.observer = observer;
		this.client = context.client();
	}

	/** Reads the leader again soon, on the election's ZooKeeper-read thread; reads queued meanwhile are one. */
	void refresh() {
		if (this.closed || !this.queued.compareAndSet(false, true)) {
			return;
		}
		try {
			this.context.io().execute(this::read);
		}
		catch (RejectedExecutionException ex) {
			this.queued.set(false);
		}
	}

	private void read() {
		this.queued.set(false);
		if (this.closed) {
			return;
		}
		try {
			readAndWatch();
		}
		finally {
			if (this.closed) {
				// closed while a watch was set: close's removal may have run before it
				removeWatches();
			}
		}
	}

	private void readAndWatch() {
		List<Candidate> candidates;
		try {
			candidates = this.context.candidates(this.role);
		}
		catch (LeadershipException ex) {
			// not connected: the reconnect reads again
			logger.debug("Could not read the leader of role '{}' yet", this.role, ex);
			return;
		}
		Candidate leader = candidates.stream().filter(Candidate::leader).findFirst().orElse(null);
		try {
			if (!watch(leader)) {
				refresh();
				return;
			}
		}
		catch (Exception ex) {
			logger.debug("Could not watch the leader of role '{}' yet", this.role, ex);
			return;
		}
		if (!this.closed) {
			this.observer.observed(leader, candidates);
		}
	}

	/**
	 * Watches what tells of the next leader change.
	 * @return {@code false} if the read is stale already (the leader left, or a candidate came)
	 */
	private boolean watch(@Nullable Candidate leader) throws Exception {
		if (leader != null) {
			String leaderPath = ZKPaths.makePath(this.rolePath, leader.nodeName());
			this.watched.add(leaderPath);
			Stat stat = this.client.checkExists().usingWatcher(this.watcher).forPath(leaderPath);
			return stat != null;
		}
		this.watched.add(this.rolePath);
		Stat parent = this.client.checkExists().usingWatcher(this.watcher).forPath(this.rolePath);
		if (parent == null) {
			return true;
		}
		try {
			List<String> children = this.client.getChildren().usingWatcher(this.watcher).forPath(this.rolePath);
			return children.stream().noneMatch((child) -> LOCK_NODE.matcher(child).matches());
		}
		catch (KeeperException.NoNodeException ex) {
			return true;
		}
	}

	/** Stops reading and removes this watch's ZooKeeper watches. */
	@Override
	public void close() {
		this.closed = true;
		removeWatches();
	}

	private void removeWatches() {
		for (String path : List.copyOf(this.watched)) {
			this.watched.remove(path);
			try {
				this.client.watchers()
					.removeAll()
					.ofType(Watcher.WatcherType.Any)
					.locally()
					.quietly()
					.inBackground()
					.forPath(path);
			}
			catch (Exception ex) {
				logger.debug("Could not remove the watches on {} of role '{}'", path, this.role, ex);
			}
		}
	}

}
