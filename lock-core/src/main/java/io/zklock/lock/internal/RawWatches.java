package io.zklock.lock.internal;

import java.util.function.Consumer;
import java.util.function.IntConsumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Watches set on the client's ZooKeeper handle itself, not through Curator, so that their
 * events keep the zxid the server stamps on them ({@link WatchedEvent#getZxid()}, ZooKeeper 3.9
 * servers, ZOOKEEPER-4655): Curator 5.9 hands every watcher a {@code NamespaceWatchedEvent},
 * which it builds without the zxid. Paths are given and reported inside the client's namespace,
 * as with Curator; requests are asynchronous and never retried (a failure is reported, a
 * connection problem as {@link KeeperException.Code#CONNECTIONLOSS}). Every watch set here is
 * counted in its handle's {@link HandleWatches}, shared by all waiters of the JVM on that handle,
 * and removed through it. Each watch is registered with a watcher object of its own, its
 * {@link Registration}: removing it drops that watcher alone, and its events (its removal's too)
 * reach only the target it was set for, never a later watch of the same path (see
 * docs/lock-protocol.md, "Watching the same node again"). Thread-safe.
 */
final class RawWatches {

	private final CuratorFramework client;

	private final Consumer<WatchedEvent> connectionEvidence;

	/**
	 * @param client the client whose ZooKeeper handle the watches are set on
	 * @param connectionEvidence hears every event of these watches, on ZooKeeper's event thread,
	 * before its target (one whose state is {@code Disconnected} only while the handle the watch
	 * was set on still has its session): such an event says the connection ended, when ZooKeeper
	 * may drop its own {@code Disconnected} event ({@link SessionGuard#watchEvent})
	 */
	RawWatches(CuratorFramework client, Consumer<WatchedEvent> connectionEvidence) {
		this.client = client;
		this.connectionEvidence = connectionEvidence;
	}

	/**
	 * Sets a data watch on {@code path} with {@code getData}; {@code reply} gets the result code,
	 * and the node's data and Stat if it exists.
	 * @param target receives the events of this watch alone, with paths inside the namespace and
	 * their zxid
	 * @return the watch, to remove or forget; counted in the handle's {@link HandleWatches} before
	 * the request is sent, so that it is removed even if the reply is lost
	 */
	Registration getData(String path, Watcher target, Read reply) {
		return set(path, target, (rc) -> reply.read(rc, null, null), (zooKeeper, full, watcher) -> zooKeeper
			.getData(full, watcher, (rc, p, ctx, data, stat) -> reply.read(rc, data, stat), null));
	}

	/** Reads the node at {@code path} without a watch: {@code getData}, whose reply says whether it exists. */
	void read(String path, Read reply) {
		ZooKeeper zooKeeper = handle((rc) -> reply.read(rc, null, null));
		if (zooKeeper != null) {
			zooKeeper.getData(fix(path), false, (rc, p, ctx, data, stat) -> reply.read(rc, data, stat), null);
		}
	}

	/**
	 * Sets a persistent (not recursive) watch on {@code path} with {@code addWatch} (ZooKeeper
	 * 3.6+): it fires on every change of the node, its deletion included, until removed.
	 * @param target receives the events of this watch alone, with paths inside the namespace and
	 * their zxid
	 * @return the watch, to remove or forget
	 */
	Registration addPersistentWatch(String path, Watcher target, IntConsumer reply) {
		return set(path, target, reply, (zooKeeper, full, watcher) -> zooKeeper.addWatch(full, watcher,
				AddWatchMode.PERSISTENT, (rc, p, ctx) -> reply.accept(rc), null));
	}

	private Registration set(String path, Watcher target, IntConsumer reply, Request request) {
		ZooKeeper zooKeeper = handle(reply);
		if (zooKeeper == null) {
			return Registration.NONE;
		}
		String full = fix(path);
		HandleWatches watches = HandleWatches.of(zooKeeper);
		Registration registration = new Registration(zooKeeper, watches, full, (event) -> {
			if (event.getState() != Watcher.Event.KeeperState.Disconnected || isAlive(zooKeeper)) {
				this.connectionEvidence.accept(event);
			}
			target.process(new WatchedEvent(event.getType(), event.getState(),
					(event.getPath() != null) ? unfix(event.getPath()) : null, event.getZxid()));
		});
		watches.set(full, () -> request.send(zooKeeper, full, registration));
		return registration;
	}

	/**
	 * Whether {@code zooKeeper} still has its session: not closed, and its session not ended. A
	 * handle whose session ended fails the requests it had queued after it queued {@code Expired},
	 * on its own event thread, when Curator may have connected a new handle already: its
	 * {@code Disconnected} watch events say nothing about the connection of now
	 * (docs/lock-protocol.md, "A disconnect the ZooKeeper client does not announce"). Reads the
	 * handle's state only: asking Curator for its current handle could take an exception meant for
	 * another caller.
	 */
	private static boolean isAlive(ZooKeeper zooKeeper) {
		return zooKeeper.getState().isAlive();
	}

	private @Nullable ZooKeeper handle(IntConsumer reply) {
		try {
			return this.client.getZookeeperClient().getZooKeeper();
		}
		catch (Exception ex) {
			// Curator has no handle now (closing, or a connection problem it reports this way)
			reply.accept(KeeperException.Code.CONNECTIONLOSS.intValue());
			return null;
		}
	}

	private String fix(String path) {
		return ZKPaths.fixForNamespace(this.client.getNamespace(), path);
	}

	private String unfix(String path) {
		String namespace = this.client.getNamespace();
		if (namespace == null || namespace.isEmpty()) {
			return path;
		}
		String prefix = ZKPaths.makePath(namespace, null);
		if (path.equals(prefix)) {
			return "/";
		}
		return path.startsWith(prefix + "/") ? path.substring(prefix.length()) : path;
	}

	/** The reply of a read of a node: its result code, and its data and Stat if it exists. */
	@FunctionalInterface
	interface Read {

		void read(int resultCode, byte @Nullable [] data, @Nullable Stat stat);

	}

	/** An asynchronous request that sets a watch on the handle's own path {@code full}, with {@code watcher}. */
	@FunctionalInterface
	private interface Request {

		void send(ZooKeeper zooKeeper, String full, Watcher watcher);

	}

	/**
	 * One watch set on a path of one handle, counted in that handle's {@link HandleWatches}, and
	 * the watcher object registered for it alone: it passes the watch's events on to its target.
	 * {@link #remove()} it when it is no longer needed, or {@link #forget()} it when it fired (a
	 * one-shot watch) or something else removed it. Each is done at most once. Thread-safe.
	 */
	static final class Registration implements Watcher {

		static final Registration NONE = new Registration(null, null, "", (event) -> {
		});

		private final @Nullable ZooKeeper zooKeeper;

		private final @Nullable HandleWatches watches;

		private final String path;

		private final Watcher target;

		private boolean done;

		private Registration(@Nullable ZooKeeper zooKeeper, @Nullable HandleWatches watches, String path,
				Watcher target) {
			this.zooKeeper = zooKeeper;
			this.watches = watches;
			this.path = path;
			this.target = target;
			this.done = (watches == null);
		}

		@Override
		public void process(WatchedEvent event) {
			this.target.process(event);
		}

		/** Removes the watcher, in the background; takes the watch off the server if it was the last. */
		void remove() {
			HandleWatches counted = this.watches;
			if (take() && counted != null && this.zooKeeper != null) {
				counted.remove(this.zooKeeper, this.path, this);
			}
		}

		/** The watcher fired or was removed: counts it out without a request. */
		void forget() {
			HandleWatches counted = this.watches;
			if (take() && counted != null) {
				counted.forget(this.path);
			}
		}

		private synchronized boolean take() {
			boolean first = !this.done;
			this.done = true;
			return first;
		}

	}

}
