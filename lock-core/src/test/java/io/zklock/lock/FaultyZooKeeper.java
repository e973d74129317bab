package io.zklock.lock;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZKPaths;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A ZooKeeper handle with faults at the client boundary, on a real server: a lock-node create
 * under a path prefix whose reply is lost (the server made the node, the client hears
 * {@code CONNECTIONLOSS}), Curator's protected-mode search after it answered as a lagging
 * follower would (without that node), {@code exists} calls on lock nodes that fail or answer
 * late, a session-id read that stalls (as the handle does while Curator replaces it), and a
 * synchronous {@code exists} of a chosen path that waits until released or interrupted.
 * Synchronous and asynchronous calls alike, so a test holds for any engine.
 */
public final class FaultyZooKeeper {

	private FaultyZooKeeper() {
	}

	/** What to break; every field may change while the test runs. */
	public static final class Faults {

		private final String prefix;

		/** Drop the reply of the next sequential create under the prefix. */
		final AtomicBoolean dropNextCreateReply = new AtomicBoolean();

		/**
		 * Answer the next synchronous listing of the prefix after a lost create reply (Curator's
		 * protected-mode search) as a follower that has not applied that create yet: without its
		 * node. Curator then creates a second node with the same protected id.
		 */
		final AtomicBoolean staleSearchAfterLostReply = new AtomicBoolean();

		/** Runs (on Curator's thread) right before the stale search answers; {@code null} for none. */
		volatile Runnable beforeStaleSearch;

		/** The path of the node whose create reply was lost, once it was. */
		final AtomicReference<String> lostReplyNode = new AtomicReference<>();

		final AtomicInteger staleSearches = new AtomicInteger();

		/** A synchronous {@code exists} of this path waits until {@link #releaseExists} counts down. */
		volatile String stallExistsOf;

		/** The threads that entered a stalled {@code exists}, in order. */
		final List<Thread> existsStalledOn = new CopyOnWriteArrayList<>();

		final CountDownLatch releaseExists = new CountDownLatch(1);

		/** Answer this many more {@code exists} calls on lock nodes under the prefix with CONNECTIONLOSS. */
		final AtomicInteger failExists = new AtomicInteger();

		/** Answer {@code exists} calls on lock nodes under the prefix this late. */
		final AtomicLong delayExistsMillis = new AtomicLong();

		/** The next {@code getSessionId()} on this thread waits until {@link #releaseSessionRead} counts down. */
		public volatile Thread stallSessionReadOn;

		/** Counted down when the stalled {@code getSessionId()} began waiting. */
		public final CountDownLatch sessionReadStalled = new CountDownLatch(1);

		public final CountDownLatch releaseSessionRead = new CountDownLatch(1);

		final AtomicInteger createRepliesDropped = new AtomicInteger();

		final AtomicInteger existsFailed = new AtomicInteger();

		private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "faulty-zookeeper-timer");
			thread.setDaemon(true);
			return thread;
		});

		public Faults(String prefix) {
			this.prefix = prefix;
		}

		/** A created lock node: under the prefix, with its ten-digit sequence suffix. */
		boolean isLockNode(String path) {
			return path.startsWith(this.prefix + "/") && path.matches(".*\\d{10}");
		}

	}

	public static ZookeeperFactory factory(Faults faults) {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new Handle(connectString, sessionTimeout, watcher, canBeReadOnly, config, faults));
	}

	private static final class Handle extends ZooKeeperAdmin {

		private final Faults faults;

		Handle(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
				ZKClientConfig config, Faults faults) throws IOException {
			super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
			this.faults = faults;
		}

		@Override
		public String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat, long ttl)
				throws KeeperException, InterruptedException {
			if (!armedFor(path, mode)) {
				return super.create(path, data, acl, mode, stat, ttl);
			}
			// a create that fails (say, NoNode for a missing parent) keeps the fault armed; a
			// successful one loses its reply, and the Stat that comes with it
			String created = super.create(path, data, acl, mode, new Stat(), ttl);
			if (!disarm(created)) {
				return super.create(path, data, acl, mode, stat, ttl);
			}
			throw new KeeperException.ConnectionLossException();
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode mode, AsyncCallback.Create2Callback cb,
				Object ctx, long ttl) {
			boolean armed = armedFor(path, mode);
			super.create(path, data, acl, mode, (rc, replyPath, context, name, stat) -> {
				if (armed && rc == KeeperException.Code.OK.intValue() && disarm(name)) {
					cb.processResult(KeeperException.Code.CONNECTIONLOSS.intValue(), replyPath, context, null, null);
				}
				else {
					cb.processResult(rc, replyPath, context, name, stat);
				}
			}, ctx, ttl);
		}

		@Override
		public List<String> getChildren(String path, Watcher watcher) throws KeeperException, InterruptedException {
			List<String> children = super.getChildren(path, watcher);
			String lost = this.faults.lostReplyNode.get();
			if (!path.equals(this.faults.prefix) || lost == null
					|| !this.faults.staleSearchAfterLostReply.compareAndSet(true, false)) {
				return children;
			}
			Runnable hook = this.faults.beforeStaleSearch;
			if (hook != null) {
				hook.run();
			}
			this.faults.staleSearches.incrementAndGet();
			List<String> stale = new ArrayList<>(children);
			stale.remove(ZKPaths.getNodeFromPath(lost));
			return stale;
		}

		@Override
		public Stat exists(String path, Watcher watcher) throws KeeperException, InterruptedException {
			if (path.equals(this.faults.stallExistsOf)) {
				// a reply that does not come: the calling thread waits, and answers an interrupt as ZooKeeper does
				this.faults.existsStalledOn.add(Thread.currentThread());
				this.faults.releaseExists.await();
			}
			if (failsExists(path)) {
				throw new KeeperException.ConnectionLossException();
			}
			long delay = this.faults.isLockNode(path) ? this.faults.delayExistsMillis.get() : 0;
			if (delay > 0) {
				// a slow reply: the calling thread waits for it, and answers an interrupt as ZooKeeper does
				Thread.sleep(delay);
			}
			return super.exists(path, watcher);
		}

		@Override
		public void exists(String path, Watcher watcher, AsyncCallback.StatCallback cb, Object ctx) {
			if (failsExists(path)) {
				cb.processResult(KeeperException.Code.CONNECTIONLOSS.intValue(), path, ctx, null);
				return;
			}
			long delay = this.faults.isLockNode(path) ? this.faults.delayExistsMillis.get() : 0;
			if (delay <= 0) {
				super.exists(path, watcher, cb, ctx);
				return;
			}
			this.faults.timer.schedule(() -> super.exists(path, watcher, cb, ctx), delay, TimeUnit.MILLISECONDS);
		}

		@Override
		public long getSessionId() {
			if (this.faults.stallSessionReadOn == Thread.currentThread()) {
				this.faults.stallSessionReadOn = null;
				this.faults.sessionReadStalled.countDown();
				try {
					this.faults.releaseSessionRead.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return super.getSessionId();
		}

		private boolean armedFor(String path, CreateMode mode) {
			return mode.isSequential() && path.startsWith(this.faults.prefix + "/")
					&& this.faults.dropNextCreateReply.get();
		}

		private boolean disarm(String created) {
			if (this.faults.dropNextCreateReply.compareAndSet(true, false)) {
				this.faults.lostReplyNode.set(created);
				this.faults.createRepliesDropped.incrementAndGet();
				return true;
			}
			return false;
		}

		private boolean failsExists(String path) {
			if (this.faults.isLockNode(path)
					&& this.faults.failExists.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
				this.faults.existsFailed.incrementAndGet();
				return true;
			}
			return false;
		}

	}

}
