package io.zklock.benchmarks.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

import io.zklock.lock.LockMode;

/**
 * The uncontended cycle with the listing sent before the create instead of after it, the order
 * zklock measured and did not adopt (docs/lock-protocol.md, "Why the listing follows the create"):
 * the lock path is listed with a child watch, the create follows on the same session without
 * waiting, and the grant is proved by the watch's event, which ZooKeeper 3.9 servers send with
 * the zxid of the change that fired it: if that zxid is our create's, nothing joined or left the
 * lock path between the listing and our create. The create and the release
 * ({@code multi(setData, delete)}, as zklock's) are synchronous calls answered on the client's
 * I/O thread, the listing's reply and the event come through the event thread. The same three
 * requests and two writes as {@link ProtocolLadder.Rung#CALLER_READS}, so that one interleaved
 * run puts the two orders side by side. Not a lock: it fails (throws) where another node or an
 * earlier change is seen instead of waiting, so for uncontended cycles only. Thread-safe.
 */
public final class ListingFirstClient implements LockClient {

	private static final byte[] NO_DATA = new byte[0];

	private static final byte[] RELEASED = "zklock:released".getBytes(StandardCharsets.UTF_8);

	private static final long REPLY_TIMEOUT_SECONDS = 30;

	private final ZooKeeper zooKeeper;

	private final String root;

	private ListingFirstClient(ZooKeeper zooKeeper, String root) {
		this.zooKeeper = zooKeeper;
		this.root = root;
	}

	/**
	 * Opens the client over a session.
	 * @param session the session whose raw ZooKeeper handle sends the requests; closed by the
	 * caller
	 * @param root the ZooKeeper path under which the nodes are made; {@code /listing-first} is
	 * appended
	 * @return the client
	 * @throws Exception if the lock path cannot be made
	 */
	public static ListingFirstClient open(ZkClient session, String root) throws Exception {
		String clientRoot = root + "/listing-first";
		session.curator().create().creatingParentsIfNeeded().forPath(clientRoot + "/solo");
		return new ListingFirstClient(session.curator().getZookeeperClient().getZooKeeper(), clientRoot);
	}

	/**
	 * Lists the lock path with a child watch, creates the node, and checks that the lock path held
	 * no node and that the watch fired for our own create.
	 * @param lockPath the lock path, such as {@code "solo"}
	 * @param mode ignored: one mode only
	 * @throws IllegalStateException if another node, or a change before ours, was seen
	 */
	@Override
	public Held lock(String lockPath, LockMode mode) throws Exception {
		String parent = zooKeeperPath(lockPath);
		CompletableFuture<List<String>> listed = new CompletableFuture<>();
		CompletableFuture<Long> childEvent = new CompletableFuture<>();
		this.zooKeeper.getChildren(parent, (event) -> childEvent.complete(event.getZxid()),
				(AsyncCallback.Children2Callback) (rc, path, ctx, children, stat) -> {
					if (rc == KeeperException.Code.OK.intValue()) {
						listed.complete(children);
					}
					else {
						listed.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
					}
				}, null);
		Stat stat = new Stat();
		String node = this.zooKeeper.create(parent + "/_c_" + UUID.randomUUID() + "-lock-", NO_DATA,
				ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL, stat);
		List<String> before = listed.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		long changedAt = childEvent.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		if (!before.isEmpty() || changedAt != stat.getCzxid()) {
			throw new IllegalStateException("Not alone on " + parent + ": listed " + before
					+ ", first child change at zxid 0x" + Long.toHexString(changedAt) + ", our create at 0x"
					+ Long.toHexString(stat.getCzxid()));
		}
		return () -> this.zooKeeper.multi(List.of(Op.setData(node, RELEASED, -1), Op.delete(node, -1)));
	}

	/** As {@link #lock(String, LockMode)}: it never waits. */
	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		return lock(lockPath, mode);
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

}
