package io.zklock.lock;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;

/**
 * A ZooKeeper handle that records, for lock nodes and listings under one path, the order in
 * which the client sent its asynchronous creates and listings and received their replies
 * ({@code "send create"}, {@code "reply create"}, {@code "send list"}, {@code "reply list"}), and
 * that can rewrite the next listing replies, to force the engine's fallback branches.
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

		Record(String lockPath) {
			this.lockPath = lockPath;
		}

		long count(String event) {
			return this.events.stream().filter(event::equals).count();
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
		public void getChildren(String path, Watcher watcher, AsyncCallback.Children2Callback cb, Object ctx) {
			if (!path.equals(this.record.lockPath)) {
				super.getChildren(path, watcher, cb, ctx);
				return;
			}
			this.record.events.add("send list");
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
