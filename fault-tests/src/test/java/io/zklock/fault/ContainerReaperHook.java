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
 * {@link ZookeeperFactory}): right after one thread's {@code exists} found an empty container
 * parent, the parent is deleted (as the reaper deletes an empty container whose children were
 * all removed), once.
 */
final class ContainerReaperHook {

	private final AtomicBoolean armed = new AtomicBoolean();

	private volatile Thread target;

	private volatile String container;

	private volatile ZooKeeper reaper;

	/**
	 * Arms the hook.
	 * @param target the thread whose check is followed by the reaping
	 * @param container the full path of the container to reap
	 * @param reaper a handle of another session that deletes it
	 */
	void arm(Thread target, String container, ZooKeeper reaper) {
		this.target = target;
		this.container = container;
		this.reaper = reaper;
		this.armed.set(true);
	}

	boolean hasFired() {
		return !this.armed.get() && this.target != null;
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
						if (stat != null && Thread.currentThread() == hook.target && path.equals(hook.container)
								&& hook.armed.compareAndSet(true, false)) {
							hook.reaper.delete(path, -1);
						}
						return stat;
					}

				};
			}

		};
	}

}
