package io.zklock.lock.internal;

import java.util.function.IntConsumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

/**
 * Watches set on the client's ZooKeeper handle itself, not through Curator, so that their
 * events keep the zxid the server stamps on them ({@link WatchedEvent#getZxid()}, ZooKeeper 3.9
 * servers, ZOOKEEPER-4655): Curator 5.9 hands every watcher a {@code NamespaceWatchedEvent},
 * which it builds without the zxid. Paths are given and reported inside the client's namespace,
 * as with Curator; requests are asynchronous and never retried (a failure is reported, a
 * connection problem as {@link KeeperException.Code#CONNECTIONLOSS}). Thread-safe.
 */
final class RawWatches {

	private final CuratorFramework client;

	RawWatches(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * A watcher for the raw handle that passes each event on to {@code target} with its path
	 * inside the namespace and its zxid; register the returned object and remove it again.
	 */
	Watcher unfixing(Watcher target) {
		return (event) -> target.process(new WatchedEvent(event.getType(), event.getState(),
				(event.getPath() != null) ? unfix(event.getPath()) : null, event.getZxid()));
	}

	/** Sets a data watch on {@code path} with {@code getData}; {@code reply} gets the result code. */
	void getData(String path, Watcher watcher, IntConsumer reply) {
		ZooKeeper zooKeeper = handle(reply);
		if (zooKeeper != null) {
			zooKeeper.getData(fix(path), watcher, (rc, p, ctx, data, stat) -> reply.accept(rc), null);
		}
	}

	/**
	 * Sets a persistent (not recursive) watch on {@code path} with {@code addWatch} (ZooKeeper
	 * 3.6+): it fires on every change of the node, its deletion included, until removed.
	 */
	void addPersistentWatch(String path, Watcher watcher, IntConsumer reply) {
		ZooKeeper zooKeeper = handle(reply);
		if (zooKeeper != null) {
			zooKeeper.addWatch(fix(path), watcher, AddWatchMode.PERSISTENT, (rc, p, ctx) -> reply.accept(rc), null);
		}
	}

	/** Sets nothing: {@code exists} on {@code path}; {@code reply} gets the result code. */
	void exists(String path, IntConsumer reply) {
		ZooKeeper zooKeeper = handle(reply);
		if (zooKeeper != null) {
			zooKeeper.exists(fix(path), false, (rc, p, ctx, stat) -> reply.accept(rc), null);
		}
	}

	/**
	 * Removes {@code watcher} of {@code type} from {@code path}, in the background, ignoring
	 * every failure: ZooKeeper takes the watch off the server once no other watcher of this client
	 * is left on it, else only drops {@code watcher} locally. Without a connection it is dropped
	 * locally ({@code local = true}): the server dropped the connection's watches with it, and the
	 * client would otherwise set a persistent watch again on its next connection, for the rest of
	 * the session (the randomized fault soak found one left so).
	 */
	void remove(String path, Watcher watcher, Watcher.WatcherType type) {
		ZooKeeper zooKeeper = handle((rc) -> {
		});
		if (zooKeeper != null) {
			zooKeeper.removeWatches(fix(path), watcher, type, true, (rc, p, ctx) -> {
			}, null);
		}
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

}
