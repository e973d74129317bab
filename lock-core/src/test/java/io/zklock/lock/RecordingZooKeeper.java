package io.zklock.lock;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A ZooKeeper handle that records, for lock nodes and listings under one path, the order in
 * which the client sent its creates and listings (asynchronous, or a listing the calling thread
 * sends itself) and received their replies
 * ({@code "send create"}, {@code "reply create"}, {@code "send list"}, {@code "reply list"}), the
 * watches it set on lock nodes ({@code "send watch"}: {@code addWatch}, or {@code getData} with a
 * watcher), its reads of lock nodes without a watch ({@code "send read"}, {@code "reply read"})
 * and its deletes of lock nodes ({@code "send delete"}); and that can rewrite the next listing
 * replies, lose reads, and hold listings back, to force the engine's fallback branches.
 */
final class RecordingZooKeeper {

	private RecordingZooKeeper() {
	}

	/** What was seen, and how to alter the next listing replies. */
	static final class Record {

		private final String lockPath;

		final List<String> events = new CopyOnWriteArrayList<>();

		/** Applied to the next listing reply (its children), then cleared; {@code null} for none. */
		volatile UnaryOperator<List<String>> rewriteNextListing;

		/** Answer this many more listings with CONNECTIONLOSS, as a lost reply. */
		final AtomicInteger loseListings = new AtomicInteger();

		/**
		 * Answer this many more reads of lock nodes without a watch with CONNECTIONLOSS, without
		 * sending them: a request lost with its connection.
		 */
		final AtomicInteger loseReads = new AtomicInteger();

		/**
		 * Answer this many more data watches on lock nodes ({@code getData} with a watcher) with
		 * CONNECTIONLOSS, without sending them: a request lost with its connection, which leaves no
		 * watcher in the handle and no watch on the server.
		 */
		final AtomicInteger loseDataWatches = new AtomicInteger();

		/**
		 * Once this many watches were set, a listing is sent only when {@link #listingGate} opens
		 * (at most 20 s later), as a slow listing; {@code 0} for never.
		 */
		volatile int holdListingsAfterWatches;

		/** Hold this many more listings back until {@link #listingGate} opens, as slow listings. */
		final AtomicInteger holdListings = new AtomicInteger();

		/** Listings of the lock path that the calling thread sent itself, as synchronous calls. */
		final AtomicInteger listingsOnCaller = new AtomicInteger();

		/** Releases ({@code multi} on a lock node) sent as synchronous calls by the releasing thread. */
		final AtomicInteger releasesOnCaller = new AtomicInteger();

		/** Releases ({@code multi} on a lock node) sent through the asynchronous API. */
		final AtomicInteger releasesInBackground = new AtomicInteger();

		/** Opens the listings held back ({@link #holdListingsAfterWatches}, {@link #holdListings}). */
		final CountDownLatch listingGate = new CountDownLatch(1);

		private final ExecutorService heldListings = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "recording-zookeeper-held-listings");
			thread.setDaemon(true);
			return thread;
		});

		Record(String lockPath) {
			this.lockPath = lockPath;
		}

		long count(String event) {
			return this.events.stream().filter(event::equals).count();
		}

		/** Whether {@code path} is a lock node under the recorded lock path. */
		boolean isLockNode(String path) {
			return path.startsWith(this.lockPath + "/") && path.matches(".*\\d{10}");
		}

		private boolean holdsListing() {
			if (this.listingGate.getCount() == 0) {
				return false;
			}
			int after = this.holdListingsAfterWatches;
			return (after > 0 && count("send watch") >= after)
					|| this.holdListings.getAndUpdate((n) -> Math.max(0, n - 1)) > 0;
		}

		/** Whether the first listing was sent before the first create's reply: one round trip. */
		boolean pipelined() {
			int sendList = this.events.indexOf("send list");
			int replyCreate = this.events.indexOf("reply create");
			return sendList >= 0 && replyCreate >= 0 && sendList < replyCreate;
		}

	}

	static ZookeeperFactory factory(Record record) {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new Handle(connectString, sessionTimeout, watcher, canBeReadOnly, config, record));
	}

	private static final class Handle extends ZooKeeperAdmin {

		private final Record record;

		Handle(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly, ZKClientConfig config,
				Record record) throws IOException {
			super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
			this.record = record;
		}

		@Override
		public void create(String path, byte[] data, List<ACL> acl, CreateMode mode, AsyncCallback.Create2Callback cb,
				Object ctx, long ttl) {
			if (!mode.isSequential() || !path.startsWith(this.record.lockPath + "/")) {
				super.create(path, data, acl, mode, cb, ctx, ttl);
				return;
			}
			this.record.events.add("send create");
			super.create(path, data, acl, mode, (rc, replyPath, context, name, stat) -> {
				this.record.events.add("reply create");
				cb.processResult(rc, replyPath, context, name, stat);
			}, ctx, ttl);
		}

		@Override
		public void getData(String path, Watcher watcher, AsyncCallback.DataCallback cb, Object ctx) {
			if (!this.record.isLockNode(path)) {
				super.getData(path, watcher, cb, ctx);
				return;
			}
			if (watcher != null) {
				this.record.events.add("send watch");
				if (this.record.loseDataWatches.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
					cb.processResult(KeeperException.Code.CONNECTIONLOSS.intValue(), path, ctx, null, null);
					return;
				}
				super.getData(path, watcher, cb, ctx);
				return;
			}
			this.record.events.add("send read");
			if (this.record.loseReads.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
				this.record.events.add("reply read");
				cb.processResult(KeeperException.Code.CONNECTIONLOSS.intValue(), path, ctx, null, null);
				return;
			}
			super.getData(path, null, (rc, replyPath, context, data, stat) -> {
				this.record.events.add("reply read");
				cb.processResult(rc, replyPath, context, data, stat);
			}, ctx);
		}

		@Override
		public void addWatch(String basePath, Watcher watcher, AddWatchMode mode, AsyncCallback.VoidCallback cb,
				Object ctx) {
			if (this.record.isLockNode(basePath)) {
				this.record.events.add("send watch");
			}
			super.addWatch(basePath, watcher, mode, cb, ctx);
		}

		@Override
		public void delete(String path, int version, AsyncCallback.VoidCallback cb, Object ctx) {
			if (this.record.isLockNode(path)) {
				this.record.events.add("send delete");
			}
			super.delete(path, version, cb, ctx);
		}

		@Override
		public void getChildren(String path, Watcher watcher, AsyncCallback.Children2Callback cb, Object ctx) {
			if (!path.equals(this.record.lockPath)) {
				super.getChildren(path, watcher, cb, ctx);
				return;
			}
			this.record.events.add("send list");
			if (this.record.holdsListing()) {
				this.record.events.add("hold list");
				this.record.heldListings.execute(() -> {
					try {
						this.record.listingGate.await(20, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					list(path, watcher, cb, ctx);
				});
				return;
			}
			list(path, watcher, cb, ctx);
		}

		/**
		 * The listing the engine's calling thread sends itself (a synchronous call that asks for the
		 * lock path's Stat, its fencing token's evidence), recorded and altered as the others; a
		 * test's own listing through Curator (no Stat) is not the engine's and passes unrecorded.
		 */
		@Override
		public List<String> getChildren(String path, Watcher watcher, Stat stat)
				throws KeeperException, InterruptedException {
			if (!path.equals(this.record.lockPath) || stat == null) {
				return super.getChildren(path, watcher, stat);
			}
			this.record.events.add("send list");
			this.record.listingsOnCaller.incrementAndGet();
			if (this.record.holdsListing()) {
				this.record.events.add("hold list");
				this.record.listingGate.await(20, TimeUnit.SECONDS);
			}
			List<String> children = super.getChildren(path, watcher, stat);
			this.record.events.add("reply list");
			UnaryOperator<List<String>> rewrite = this.record.rewriteNextListing;
			if (this.record.loseListings.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
				throw new KeeperException.ConnectionLossException();
			}
			if (rewrite != null) {
				this.record.rewriteNextListing = null;
				return rewrite.apply(children);
			}
			return children;
		}

		@Override
		public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
			if (touchesLockNode(ops)) {
				this.record.releasesOnCaller.incrementAndGet();
			}
			return super.multi(ops);
		}

		@Override
		public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback cb, Object ctx) {
			if (touchesLockNode(ops)) {
				this.record.releasesInBackground.incrementAndGet();
			}
			super.multi(ops, cb, ctx);
		}

		private boolean touchesLockNode(Iterable<Op> ops) {
			for (Op op : ops) {
				if (this.record.isLockNode(op.getPath())) {
					return true;
				}
			}
			return false;
		}

		@Override
		public void delete(String path, int version) throws InterruptedException, KeeperException {
			if (this.record.isLockNode(path)) {
				this.record.events.add("send delete");
			}
			super.delete(path, version);
		}

		private void list(String path, Watcher watcher, AsyncCallback.Children2Callback cb, Object ctx) {
			super.getChildren(path, watcher, (rc, replyPath, context, children, stat) -> {
				this.record.events.add("reply list");
				UnaryOperator<List<String>> rewrite = this.record.rewriteNextListing;
				if (this.record.loseListings.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
					cb.processResult(KeeperException.Code.CONNECTIONLOSS.intValue(), replyPath, context, null, null);
				}
				else if (rewrite != null && rc == KeeperException.Code.OK.intValue()) {
					this.record.rewriteNextListing = null;
					cb.processResult(rc, replyPath, context, rewrite.apply(children), stat);
				}
				else {
					cb.processResult(rc, replyPath, context, children, stat);
				}
			}, ctx);
		}

	}

}
