package io.zklock.lock.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.WatchedEvent;
import org.jspecify.annotations.Nullable;

/**
 * The Curator client as the acquires of one {@link LockNodeQueue} use it: its connection and
 * session (from the {@link SessionGuard} and the {@link NamespaceGate}), and background deletes
 * of the nodes they give up (with the other nodes of their create, {@link ProtectedNodes}). The
 * watches its waiters set are counted per ZooKeeper handle ({@link HandleWatches}). Thread-safe.
 */
final class QueueClient {

	private final CuratorFramework client;

	private final SessionGuard guard;

	private final NamespaceGate namespace;

	/** The blocker a waiter last saw, by lock path (ZooKeeper path), for the last 1024 lock paths waited on. */
	private final Map<String, BlockerSeen> blockers = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {

		private static final long serialVersionUID = 1L;

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, BlockerSeen> eldest) {
			return size() > 1024;
		}

	});

	QueueClient(CuratorFramework client, SessionGuard guard, NamespaceGate namespace) {
		this.client = client;
		this.guard = guard;
		this.namespace = namespace;
	}

	/** Deletes an abandoned or foreign node in the background, never blocking; {@code null} is ignored. */
	void deleteInBackground(@Nullable String nodePath) {
		if (nodePath != null) {
			NodeDeletion.deleteInBackground(this.client, nodePath, null);
		}
	}

	/**
	 * Deletes an abandoned node and the other nodes of its create ({@link ProtectedNodes}) in the
	 * background.
	 */
	void deleteWithDuplicates(String nodePath) {
		ProtectedNodes.deleteWithDuplicates(this.client, nodePath);
	}

	/** Deletes nodes in the background. */
	void deleteAll(List<String> nodePaths) {
		nodePaths.forEach(this::deleteInBackground);
	}

	/** A waiter on the lock path at {@code basePath} waits for {@code seen}. */
	void sawBlocker(String basePath, BlockerSeen seen) {
		this.blockers.put(basePath, seen);
	}

	/** The blocker a waiter of this engine last saw on the lock path at {@code basePath}, if any. */
	Optional<BlockerSeen> lastBlocker(String basePath) {
		return Optional.ofNullable(this.blockers.get(basePath));
	}

	CuratorFramework client() {
		return this.client;
	}

	/**
	 * Whether acquires may send requests: the client is connected and its namespace was made
	 * ({@link NamespaceGate}), so that no request makes Curator block the caller's thread.
	 */
	boolean isConnected() {
		return this.guard.isConnected() && this.namespace.isOpen();
	}

	long sessionId() {
		return this.guard.sessionId();
	}

	long epoch() {
		return this.guard.epoch();
	}

	/** Tells the session guard of an event of a watch the queue set: it may say the connection ended. */
	void watchEvent(WatchedEvent event) {
		this.guard.watchEvent(event);
	}

}
