package io.zklock.leadership.internal;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeadershipException;
import org.apache.curator.framework.WatcherRemoveCuratorFramework;
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
 * The watches are set through a watcher-removing view of the client, so {@link #close()} leaves
 * none behind. Thread-safe.
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

	private final WatcherRemoveCuratorFramework watches;

	private final AtomicBoolean queued = new AtomicBoolean();

	private final CuratorWatcher watcher = (event) -> {
		if (event.getType() != Watcher.Event.EventType.None) {
			refresh();
		}
	};

	private volatile boolean closed;

	LeaderWatch(ElectionContext context, String role, Observer observer) {
		this.context = context;
		this.role = role;
		this.rolePath = context.rolePath(role);
		this.observer = observer;
		this.watches = context.client().newWatcherRemoveCuratorFramework();
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
			Stat stat = this.watches.checkExists().usingWatcher(this.watcher)
				.forPath(ZKPaths.makePath(this.rolePath, leader.nodeName()));
			return stat != null;
		}
		Stat parent = this.watches.checkExists().usingWatcher(this.watcher).forPath(this.rolePath);
		if (parent == null) {
			return true;
		}
		try {
			List<String> children = this.watches.getChildren().usingWatcher(this.watcher).forPath(this.rolePath);
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
		try {
			this.watches.removeWatchers();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not remove the watches on the leader of role '{}'", this.role, ex);
		}
	}

}
