package io.zklock.lock;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A ZooKeeper handle (a {@link ZooKeeperAdmin}, as Curator's default factory makes) that
 * counts, for paths under one prefix, the lock-node creates, the {@code getChildren} calls
 * (each one is a waiter checking the queue), the {@code getData} watches and the persistent
 * watches ({@code addWatch}) set, and the watch events delivered to those watches (not the local
 * events of a watch's removal), whether the calls are synchronous or asynchronous.
 * Plugged into a Curator client with {@link #factory(Counters)}.
 *
 * <p>
 * Only for tests that never remove a watch by watcher object: the watcher registered with
 * ZooKeeper is a counting wrapper, which a removal by the original watcher would not find.
 */
final class CountingZooKeeper extends ZooKeeperAdmin {

	private final Counters counters;

	private CountingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			ZKClientConfig config, Counters counters) throws IOException {
		super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
		this.counters = counters;
	}

	/** A Curator {@link ZookeeperFactory} whose handles count into {@code counters}. */
	static ZookeeperFactory factory(Counters counters) {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new CountingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, config,
						counters));
	}

	@Override
	public String create(String path, byte[] data, List<ACL> acl, CreateMode createMode, Stat stat, long ttl)
			throws KeeperException, InterruptedException {
		if (this.counters.counts(path) && createMode.isSequential()) {
			this.counters.lockNodeCreates.incrementAndGet();
		}
		return super.create(path, data, acl, createMode, stat, ttl);
	}

	@Override
	public void create(String path, byte[] data, List<ACL> acl, CreateMode createMode, AsyncCallback.Create2Callback cb,
			Object ctx, long ttl) {
		if (this.counters.counts(path) && createMode.isSequential()) {
			this.counters.lockNodeCreates.incrementAndGet();
		}
		super.create(path, data, acl, createMode, cb, ctx, ttl);
	}

	@Override
	public void getChildren(String path, Watcher watcher, AsyncCallback.Children2Callback cb, Object ctx) {
		if (this.counters.counts(path)) {
			this.counters.childrenReads.incrementAndGet();
		}
		super.getChildren(path, watcher, cb, ctx);
	}

	@Override
	public void getChildren(String path, Watcher watcher, AsyncCallback.ChildrenCallback cb, Object ctx) {
		if (this.counters.counts(path)) {
			this.counters.childrenReads.incrementAndGet();
		}
		super.getChildren(path, watcher, cb, ctx);
	}

	@Override
	public void getData(String path, Watcher watcher, AsyncCallback.DataCallback cb, Object ctx) {
		super.getData(path, counting(path, watcher), cb, ctx);
	}

	@Override
	public List<String> getChildren(String path, Watcher watcher, Stat stat)
			throws KeeperException, InterruptedException {
		// getChildren(path, boolean, Stat) delegates here, so each call is counted once
		if (this.counters.counts(path)) {
			this.counters.childrenReads.incrementAndGet();
		}
		return super.getChildren(path, watcher, stat);
	}

	@Override
	public byte[] getData(String path, Watcher watcher, Stat stat) throws KeeperException, InterruptedException {
		return super.getData(path, counting(path, watcher), stat);
	}

	@Override
	public void addWatch(String basePath, Watcher watcher, AddWatchMode mode, AsyncCallback.VoidCallback cb,
			Object ctx) {
		Watcher counted = watcher;
		if (this.counters.counts(basePath)) {
			this.counters.persistentWatchesSet.incrementAndGet();
			counted = countingEvents(watcher);
		}
		super.addWatch(basePath, counted, mode, cb, ctx);
	}

	/** Counts a data watch set under the prefix, and the events it delivers. */
	private Watcher counting(String path, Watcher watcher) {
		if (watcher == null || !this.counters.counts(path)) {
			return watcher;
		}
		this.counters.dataWatchesSet.incrementAndGet();
		return countingEvents(watcher);
	}

	private Watcher countingEvents(Watcher watcher) {
		return (event) -> {
			switch (event.getType()) {
				case NodeCreated, NodeDeleted, NodeDataChanged, NodeChildrenChanged ->
					this.counters.watchEvents.incrementAndGet();
				default -> {
				}
			}
			watcher.process(event);
		};
	}

	/** What one client did under one path prefix (a ZooKeeper path, namespace included). */
	static final class Counters {

		private final String pathPrefix;

		final AtomicInteger lockNodeCreates = new AtomicInteger();

		final AtomicInteger childrenReads = new AtomicInteger();

		final AtomicInteger dataWatchesSet = new AtomicInteger();

		final AtomicInteger persistentWatchesSet = new AtomicInteger();

		final AtomicInteger watchEvents = new AtomicInteger();

		Counters(String pathPrefix) {
			this.pathPrefix = pathPrefix;
		}

		boolean counts(String path) {
			return path.equals(this.pathPrefix) || path.startsWith(this.pathPrefix + "/");
		}

		@Override
		public String toString() {
			return "creates=" + this.lockNodeCreates + ", getChildren=" + this.childrenReads + ", watches="
					+ this.dataWatchesSet + ", persistent watches=" + this.persistentWatchesSet + ", events="
					+ this.watchEvents;
		}

	}

}
