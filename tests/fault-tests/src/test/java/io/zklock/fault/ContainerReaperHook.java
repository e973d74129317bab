package io.zklock.fault;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Plays the server's container reaper at an exact moment, at the client boundary (a
 * {@link ZookeeperFactory}): the armed container is deleted (as the reaper deletes an empty
 * container whose children were all removed), once, on whichever thread made the call, at one
 * of two {@link Moment}s of an acquire on a new lock path below it.
 */
final class ContainerReaperHook {

	/** When the container is reaped. */
	enum Moment {

		/**
		 * Right before the client sends a CONTAINER create below it: zklock's creation of a new
		 * lock path, pipelined with the lock node's create after the first create got
		 * {@code NoNode}.
		 */
		BEFORE_CONTAINER_CREATE_BELOW,

		/**
		 * Right after an {@code exists} found it: Curator's {@code ZKPaths.mkdirs} on Curator's
		 * background thread, creating every missing parent of a lock node (zklock's second try
		 * when the lock path's own parent was missing too).
		 */
		AFTER_EXISTS

	}

	private final AtomicBoolean armed = new AtomicBoolean();

	private volatile Moment moment;

	private volatile boolean used;

	private volatile String container;

	private volatile ZooKeeper reaper;

	private volatile String firedOn;

	/**
	 * Arms the hook.
	 * @param moment when to reap
	 * @param container the full path of the container to reap
	 * @param reaper a handle of another session that deletes it
	 */
	void arm(Moment moment, String container, ZooKeeper reaper) {
		this.used = true;
		this.moment = moment;
		this.container = container;
		this.reaper = reaper;
		this.armed.set(true);
	}

	boolean hasFired() {
		return !this.armed.get() && this.used;
	}

	/** The thread whose call came with the reaping, or {@code null}. */
	String firedOn() {
		return this.firedOn;
	}

	private void reapAt(Moment now) {
		if (now == this.moment && this.armed.compareAndSet(true, false)) {
			this.firedOn = Thread.currentThread().getName();
			try {
				this.reaper.delete(this.container, -1);
			}
			catch (KeeperException | InterruptedException ex) {
				throw new IllegalStateException("Could not reap " + this.container, ex);
			}
		}
	}

	ZookeeperFactory factory() {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

			@Override
			public Stat exists(String path, boolean watch) throws KeeperException, InterruptedException {
				Stat stat = super.exists(path, watch);
				if (stat != null && path.equals(ContainerReaperHook.this.container)) {
					reapAt(Moment.AFTER_EXISTS);
				}
				return stat;
			}

			@Override
			public void create(String path, byte[] data, List<ACL> acl, CreateMode mode,
					AsyncCallback.Create2Callback cb, Object ctx, long ttl) {
				if (mode == CreateMode.CONTAINER && path.startsWith(ContainerReaperHook.this.container + "/")) {
					reapAt(Moment.BEFORE_CONTAINER_CREATE_BELOW);
				}
				super.create(path, data, acl, mode, cb, ctx, ttl);
			}

		});
	}

}
