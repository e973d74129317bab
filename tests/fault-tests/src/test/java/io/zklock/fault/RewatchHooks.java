package io.zklock.fault;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;

import static org.awaitility.Awaitility.await;

/**
 * Watches a waiter's calls on one lock path at the client boundary (a {@link ZookeeperFactory}
 * whose handles note and delay calls) for a round that watches its blocker a second time: counts
 * the watches it sets on lock nodes ({@code addWatch}, or {@code getData} with a watcher) and the
 * replies of its reads of lock nodes without a watch (the read behind a persistent watch), and,
 * once {@link #slowListingsAfterWatches} watches were set, sends every listing of the lock path
 * {@link #listingDelay} late, as a slow server would answer it. Every handle the factory makes
 * (one per session) shares the hooks. Thread-safe.
 */
final class RewatchHooks {

	private final String lockPath;

	/** Watches set on lock nodes under the lock path. */
	final AtomicInteger watches = new AtomicInteger();

	/** Replies of reads of lock nodes without a watch. */
	final AtomicInteger readReplies = new AtomicInteger();

	/** Listings of the lock path that were sent late. */
	final AtomicInteger slowListings = new AtomicInteger();

	/** Once this many watches were set, listings go {@link #listingDelay} late; {@code 0} for never. */
	volatile int slowListingsAfterWatches;

	volatile Duration listingDelay = Duration.ZERO;

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "rewatch-hooks-timer");
		thread.setDaemon(true);
		return thread;
	});

	/** @param lockPath the lock path as the handle sees it (namespace included) */
	RewatchHooks(String lockPath) {
		this.lockPath = lockPath;
	}

	ZookeeperFactory factory() {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

			@Override
			public void getData(String path, Watcher dataWatcher, AsyncCallback.DataCallback callback,
					Object context) {
				if (!isLockNode(path)) {
					super.getData(path, dataWatcher, callback, context);
				}
				else if (dataWatcher != null) {
					RewatchHooks.this.watches.incrementAndGet();
					super.getData(path, dataWatcher, callback, context);
				}
				else {
					super.getData(path, null, (rc, replyPath, ctx, data, stat) -> {
						RewatchHooks.this.readReplies.incrementAndGet();
						callback.processResult(rc, replyPath, ctx, data, stat);
					}, context);
				}
			}

			@Override
			public void addWatch(String basePath, Watcher watcher, AddWatchMode mode, AsyncCallback.VoidCallback callback,
					Object context) {
				if (isLockNode(basePath)) {
					RewatchHooks.this.watches.incrementAndGet();
				}
				super.addWatch(basePath, watcher, mode, callback, context);
			}

			@Override
			public void getChildren(String path, Watcher childWatcher, AsyncCallback.Children2Callback callback,
					Object context) {
				int after = RewatchHooks.this.slowListingsAfterWatches;
				if (!path.equals(RewatchHooks.this.lockPath) || after <= 0
						|| RewatchHooks.this.watches.get() < after) {
					super.getChildren(path, childWatcher, callback, context);
					return;
				}
				RewatchHooks.this.slowListings.incrementAndGet();
				RewatchHooks.this.timer.schedule(() -> super.getChildren(path, childWatcher, callback, context),
						RewatchHooks.this.listingDelay.toMillis(), TimeUnit.MILLISECONDS);
			}

		});
	}

	/**
	 * Waits until {@code count} watches were set and {@code count} reads behind them answered,
	 * looking every millisecond: a test acts within the slow listing's delay.
	 */
	void awaitWatchesAnswered(int count, Duration patience) {
		await(count + " watch(es) set and their reads answered").atMost(patience)
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(1))
			.until(() -> this.watches.get() >= count && this.readReplies.get() >= count);
	}

	private boolean isLockNode(String path) {
		return path.startsWith(this.lockPath + "/") && path.matches(".*\\d{10}");
	}

}
