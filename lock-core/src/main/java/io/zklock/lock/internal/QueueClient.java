package io.zklock.lock.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * The Curator client as the acquires of one {@link LockNodeQueue} use it: its connection and
 * session (from the {@link SessionGuard}), the count of predecessor watches that all its waiters
 * share, and background deletes of the nodes they give up. Thread-safe.
 */
final class QueueClient {

	private final CuratorFramework client;

	private final SessionGuard guard;

	/** Pending predecessor watches of this client's waiters, by path; see {@link PredecessorWatch}. */
	private final ConcurrentMap<String, Integer> watchersByPath = new ConcurrentHashMap<>();

	QueueClient(CuratorFramework client, SessionGuard guard) {
		this.client = client;
		this.guard = guard;
	}

	/** Deletes an abandoned or foreign node in the background, never blocking; {@code null} is ignored. */
	void deleteInBackground(@Nullable String nodePath) {
		if (nodePath != null) {
			NodeDeletion.deleteInBackground(this.client, nodePath, null);
		}
	}

	/** Deletes an abandoned node in the background and completes {@code deleted} when the reply arrives. */
	void deleteInBackground(String nodePath, CompletableFuture<@Nullable Void> deleted) {
		NodeDeletion.deleteInBackground(this.client, nodePath, deleted);
	}

	CuratorFramework client() {
		return this.client;
	}

	ConcurrentMap<String, Integer> watchersByPath() {
		return this.watchersByPath;
	}

	boolean isConnected() {
		return this.guard.isConnected();
	}

	long sessionId() {
		return this.guard.sessionId();
	}

	long epoch() {
		return this.guard.epoch();
	}

}
