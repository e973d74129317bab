package io.zklock.benchmarks.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

import io.zklock.lock.LockMode;

/**
 * zklock's uncontended cycle rebuilt step by step from the protocol floor
 * ({@link ProtocolFloorClient}), each rung adding one thing zklock does, so that one interleaved
 * run measures what each costs: {@link Rung#ASYNC} waits for the two writes' replies through
 * ZooKeeper's asynchronous API (the reply reaches the caller through the client's event thread,
 * one thread more than a synchronous call), {@link Rung#LISTING} pipelines the lock path's listing
 * behind the create, {@link Rung#RELEASE_PROOF} releases with {@code multi(setData, delete)}
 * instead of a delete, {@link Rung#PROTECTED_NAME} names the node as Curator's protected mode
 * does ({@code _c_<uuid>-lock-}), {@link Rung#CURATOR_BACKGROUND} sends all of it through
 * Curator's background API, and {@link Rung#CALLER_READS} sends the create so but has the calling
 * thread read the listing's and the release's replies itself, as zklock's ordinary cycle does on
 * a platform thread. zklock's cycle minus that rung is what its own machinery costs (its holds,
 * listeners, session guard, leak watch). Like the floor, none of them
 * is a lock (each listing is looked at only for our node): uncontended cycles only.
 */
public final class ProtocolLadder implements LockClient {

	private static final byte[] NO_DATA = new byte[0];

	private static final byte[] RELEASED = "zklock:released".getBytes(StandardCharsets.UTF_8);

	private static final long REPLY_TIMEOUT_SECONDS = 30;

	/** The rungs, each adding one thing to the one before. */
	public enum Rung {

		/** Create and delete through the asynchronous API, waiting on a future. */
		ASYNC("floor + replies through the event thread"),

		/** And the listing pipelined behind the create. */
		LISTING("+ pipelined listing"),

		/** And the release as {@code multi(setData, delete)}. */
		RELEASE_PROOF("+ release as multi(setData, delete)"),

		/** And the protected node name. */
		PROTECTED_NAME("+ protected node name (_c_<uuid>-)"),

		/** And everything through Curator's background API. */
		CURATOR_BACKGROUND("+ Curator's background API"),

		/**
		 * The create through Curator's background API (its reply through the event thread), the
		 * listing and the release on the raw client, the caller reading their replies itself
		 * (synchronous calls, answered on the client's I/O thread): the path zklock's ordinary cycle
		 * takes on a platform thread.
		 */
		CALLER_READS("Curator's create, the caller reads listing and release");

		private final String displayName;

		Rung(String displayName) {
			this.displayName = displayName;
		}

		/**
		 * The name in reports.
		 * @return such as {@code "+ pipelined listing"}
		 */
		public String displayName() {
			return this.displayName;
		}

	}

	private final Rung rung;

	private final ZooKeeper zooKeeper;

	private final CuratorFramework curator;

	private final String root;

	private ProtocolLadder(Rung rung, ZooKeeper zooKeeper, CuratorFramework curator, String root) {
		this.rung = rung;
		this.zooKeeper = zooKeeper;
		this.curator = curator;
		this.root = root;
	}

	/**
	 * Opens a rung over a session.
	 * @param rung the rung
	 * @param session the session (its raw ZooKeeper handle for the rungs below Curator's); closed by
	 * the caller
	 * @param root the ZooKeeper path under which the nodes are made; {@code /ladder-<rung>} is
	 * appended
	 * @return the client
	 * @throws Exception if the lock path cannot be made
	 */
	public static ProtocolLadder open(Rung rung, ZkClient session, String root) throws Exception {
		String ladderRoot = root + "/ladder-" + rung.name().toLowerCase(java.util.Locale.ROOT);
		session.curator().create().creatingParentsIfNeeded().forPath(ladderRoot + "/solo");
		return new ProtocolLadder(rung, session.curator().getZookeeperClient().getZooKeeper(), session.curator(),
				ladderRoot);
	}

	@Override
	public Held lock(String lockPath, LockMode mode) throws Exception {
		String parent = zooKeeperPath(lockPath);
		// Curator's protected mode names the node itself
		String prefix = (this.rung == Rung.PROTECTED_NAME) ? parent + "/_c_" + UUID.randomUUID() + "-lock-"
				: parent + "/lock-";
		CompletableFuture<String> created = new CompletableFuture<>();
		CompletableFuture<List<String>> listed = new CompletableFuture<>();
		boolean listing = this.rung.compareTo(Rung.LISTING) >= 0;
		if (this.rung == Rung.CALLER_READS) {
			return callerReads(parent, prefix);
		}
		if (this.rung == Rung.CURATOR_BACKGROUND) {
			this.curator.create().withProtection().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).inBackground((client, event) -> {
				complete(created, event.getResultCode(), event.getName());
			}).forPath(prefix, NO_DATA);
			this.curator.getChildren().inBackground((client, event) -> complete(listed, event.getResultCode(),
					event.getChildren())).forPath(parent);
		}
		else {
			this.zooKeeper.create(prefix, NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL,
					(AsyncCallback.Create2Callback) (rc, path, ctx, name, stat) -> complete(created, rc, name), null);
			if (listing) {
				this.zooKeeper.getChildren(parent, false,
						(AsyncCallback.Children2Callback) (rc, path, ctx, children, stat) -> complete(listed, rc, children),
						null);
			}
		}
		String node = created.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		if (listing && !listed.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS)
			.contains(node.substring(node.lastIndexOf('/') + 1))) {
			throw new IllegalStateException("The pipelined listing missed " + node);
		}
		return () -> release(node);
	}

	private Held callerReads(String parent, String prefix) throws Exception {
		CompletableFuture<String> created = new CompletableFuture<>();
		this.curator.create().withProtection().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).inBackground((client, event) -> {
			complete(created, event.getResultCode(), event.getName());
		}).forPath(prefix, NO_DATA);
		List<String> children = this.zooKeeper.getChildren(parent, false, new Stat());
		String node = created.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		if (!children.contains(node.substring(node.lastIndexOf('/') + 1))) {
			throw new IllegalStateException("The pipelined listing missed " + node);
		}
		return () -> this.zooKeeper.multi(List.of(Op.setData(node, RELEASED, -1), Op.delete(node, -1)));
	}

	private void release(String node) throws Exception {
		CompletableFuture<Object> released = new CompletableFuture<>();
		boolean proof = this.rung.compareTo(Rung.RELEASE_PROOF) >= 0;
		if (this.rung == Rung.CURATOR_BACKGROUND) {
			this.curator.transaction()
				.inBackground((client, event) -> complete(released, event.getResultCode(), node))
				.forOperations(this.curator.transactionOp().setData().forPath(node, RELEASED),
						this.curator.transactionOp().delete().forPath(node));
		}
		else if (proof) {
			this.zooKeeper.multi(List.of(Op.setData(node, RELEASED, -1), Op.delete(node, -1)),
					(rc, path, ctx, results) -> complete(released, rc, node), null);
		}
		else {
			this.zooKeeper.delete(node, -1, (rc, path, ctx) -> complete(released, rc, node), null);
		}
		released.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
	}

	private static <T> void complete(CompletableFuture<T> future, int resultCode, T value) {
		if (resultCode == KeeperException.Code.OK.intValue()) {
			future.complete(value);
		}
		else {
			future.completeExceptionally(KeeperException.create(KeeperException.Code.get(resultCode)));
		}
	}

	/** As {@link #lock(String, LockMode)}: the ladder never waits. */
	@Override
	public Held lock(String lockPath, LockMode mode, Duration wait) throws Exception {
		return lock(lockPath, mode);
	}

	@Override
	public String zooKeeperPath(String lockPath) {
		return this.root + "/" + lockPath;
	}

}
