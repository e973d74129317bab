package io.zklock.fault;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;

/**
 * Holds one thread at two points of a lock acquire, at the client boundary (a
 * {@link ZookeeperFactory} whose handles wait on latches): its next listing of the queue, and
 * its removal of a watch it no longer needs; and tells when it has set its watch. All three run
 * on the acquiring thread itself, so a test can make faults happen exactly there. Every handle
 * the factory makes (one per session) shares the hooks.
 */
final class GrantWindowHooks {

	final CountDownLatch watchSet = new CountDownLatch(1);

	final CountDownLatch listingEntered = new CountDownLatch(1);

	final CountDownLatch listingReleased = new CountDownLatch(1);

	final CountDownLatch removalEntered = new CountDownLatch(1);

	final CountDownLatch removalReleased = new CountDownLatch(1);

	volatile Thread target;

	volatile boolean holdListing;

	volatile boolean holdWatchRemoval;

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
					public List<String> getChildren(String path, Watcher childWatcher, Stat stat)
							throws KeeperException, InterruptedException {
						if (GrantWindowHooks.this.holdListing && Thread.currentThread() == GrantWindowHooks.this.target) {
							GrantWindowHooks.this.holdListing = false;
							GrantWindowHooks.this.listingEntered.countDown();
							GrantWindowHooks.this.listingReleased.await(60, TimeUnit.SECONDS);
						}
						return super.getChildren(path, childWatcher, stat);
					}

					@Override
					public byte[] getData(String path, Watcher dataWatcher, Stat stat)
							throws KeeperException, InterruptedException {
						byte[] data = super.getData(path, dataWatcher, stat);
						if (dataWatcher != null && Thread.currentThread() == GrantWindowHooks.this.target) {
							GrantWindowHooks.this.watchSet.countDown();
						}
						return data;
					}

					@Override
					public void removeAllWatches(String path, Watcher.WatcherType watcherType, boolean local)
							throws InterruptedException, KeeperException {
						if (GrantWindowHooks.this.holdWatchRemoval
								&& Thread.currentThread() == GrantWindowHooks.this.target) {
							GrantWindowHooks.this.holdWatchRemoval = false;
							GrantWindowHooks.this.removalEntered.countDown();
							GrantWindowHooks.this.removalReleased.await(60, TimeUnit.SECONDS);
						}
						super.removeAllWatches(path, watcherType, local);
					}

				};
			}

		};
	}

}
