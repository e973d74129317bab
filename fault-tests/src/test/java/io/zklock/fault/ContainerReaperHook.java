package io.zklock.fault;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;

/**
 * Plays the server's container reaper at an exact moment, at the client boundary (a
 * {@link ZookeeperFactory}): right after the first {@code exists} since the hook was armed found
 * the container parent, on whichever thread made the call, the parent is deleted (as the reaper
 * deletes an empty container whose children were all removed), once. With zklock's background
 * creates, that call is Curator's {@code ZKPaths.mkdirs} on Curator's background thread,
 * creating the missing parents of a lock node whose create got {@code NoNode}.
 */
final class ContainerReaperHook {

	private final AtomicBoolean armed = new AtomicBoolean();

	private volatile boolean used;

	private volatile String container;

	private volatile ZooKeeper reaper;

	private volatile String firedOn;

	/**
	 * Arms the hook.
	 * @param container the full path of the container to reap
	 * @param reaper a handle of another session that deletes it
	 */
	void arm(String container, ZooKeeper reaper) {
		this.used = true;
		this.container = container;
		this.reaper = reaper;
		this.armed.set(true);
	}

	boolean hasFired() {
		return !this.armed.get() && this.used;
	}

	/** The thread whose {@code exists} was followed by the reaping, or {@code null}. */
	String firedOn() {
		return this.firedOn;
	}

	ZookeeperFactory factory() {
		return new ZookeeperFactory() {

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly) throws Exception {
				return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
			}

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly, ZKClientConfig config) throws IOException {
				return new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

					@Override
					public Stat exists(String path, boolean watch) throws KeeperException, InterruptedException {
						Stat stat = super.exists(path, watch);
						ContainerReaperHook hook = ContainerReaperHook.this;
						if (stat != null && path.equals(hook.container) && hook.armed.compareAndSet(true, false)) {
							hook.firedOn = Thread.currentThread().getName();
							hook.reaper.delete(path, -1);
						}
						return stat;
					}

				};
			}

		};
	}

}
