package io.zklock.fault;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;

/**
 * Holds the acquiring thread of a lock acquire at the client boundary (a
 * {@link ZookeeperFactory} whose handles wait on latches) in the window between the grant and
 * the hold's registration, and tells when the waiter has set its watch.
 *
 * <p>
 * zklock sends every ZooKeeper call of an acquire with Curator's background API: the grant is
 * decided on ZooKeeper's event thread (or Curator's background thread) while the acquiring
 * thread parks on a future, so that thread makes no ZooKeeper call while it waits. Its first
 * call into the ZooKeeper handle once the grant is decided is {@link ZooKeeper#getSessionId()},
 * which the session guard reads when it registers the hold ({@code SessionGuard.register}). Once
 * {@link #holdSessionRead} is set, that call on the {@link #target} thread waits until the test
 * lets it go, then returns what the handle says (the handle it was called on, even if Curator
 * has replaced it meanwhile). The watch is noticed on any thread: Curator sets it in the
 * background with the asynchronous {@code getData}. Every handle the factory makes (one per
 * session) shares the hooks.
 */
final class GrantWindowHooks {

	/** Counted down when a watch is set on a node: the asynchronous {@code getData} or {@code addWatch}. */
	final CountDownLatch watchSet = new CountDownLatch(1);

	/** Counted down when the target thread entered {@code getSessionId()} after the hook was armed. */
	final CountDownLatch sessionReadEntered = new CountDownLatch(1);

	/** Lets the held {@code getSessionId()} return. */
	final CountDownLatch sessionReadReleased = new CountDownLatch(1);

	/** The acquiring thread. */
	volatile Thread target;

	/** Arms the hook: the target's next {@code getSessionId()} waits, once. */
	volatile boolean holdSessionRead;

	ZookeeperFactory factory() {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

			@Override
			public long getSessionId() {
				GrantWindowHooks hooks = GrantWindowHooks.this;
				if (hooks.holdSessionRead && Thread.currentThread() == hooks.target) {
					hooks.holdSessionRead = false;
					hooks.sessionReadEntered.countDown();
					try {
						hooks.sessionReadReleased.await(60, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return super.getSessionId();
			}

			@Override
			public void getData(String path, Watcher dataWatcher, AsyncCallback.DataCallback callback,
					Object context) {
				super.getData(path, dataWatcher, callback, context);
				if (dataWatcher != null) {
					GrantWindowHooks.this.watchSet.countDown();
				}
			}

			@Override
			public void addWatch(String basePath, Watcher watcher, AddWatchMode mode, AsyncCallback.VoidCallback callback,
					Object context) {
				// the persistent watch on an exclusive blocker, whose release hands the lock on without a listing
				super.addWatch(basePath, watcher, mode, callback, context);
				GrantWindowHooks.this.watchSet.countDown();
			}

		});
	}

}
