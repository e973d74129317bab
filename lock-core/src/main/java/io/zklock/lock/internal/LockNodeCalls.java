package io.zklock.lock.internal;

import java.util.List;

import io.zklock.lock.LockMode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper requests of one acquire, all sent with Curator's background API (nothing here
 * waits for a reply): the protected {@code EPHEMERAL_SEQUENTIAL} create of a lock node under
 * CONTAINER parents, the listing of the lock path, the read of a lock node's {@code Stat}, and
 * a write of our own node for a fencing token of its own.
 */
final class LockNodeCalls {

	private static final BackgroundCallback IGNORED = (client, event) -> {
	};

	private final CuratorFramework client;

	private final String basePath;

	private final LockMode mode;

	private final String nodePrefix;

	private final byte[] nodeData;

	/** Creates that found a parent missing; guarded by the attempt's lock. */
	private int missingParentRounds;

	LockNodeCalls(CuratorFramework client, String basePath, LockMode mode, byte[] nodeData) {
		this.client = client;
		this.basePath = basePath;
		this.mode = mode;
		this.nodePrefix = ZKPaths.makePath(basePath, mode.nodeMarker());
		this.nodeData = nodeData;
	}

	/**
	 * Creates our lock node; the reply carries its path and (unless protected mode adopted it)
	 * its Stat. The first create assumes the lock path exists, as it does for a lock in use. After
	 * a create found it missing ({@link #createParentsNext()}), the lock path's CONTAINER create
	 * goes out right before the node's (pipelined, its reply ignored: NodeExists means another
	 * client made it); after a second miss, Curator creates every missing parent as a CONTAINER.
	 * A new key then costs one request for its lock path instead of an {@code exists} per level
	 * and the protected-mode listing Curator sends after making parents in the background.
	 */
	void create(BackgroundCallback reply) throws Exception {
		if (this.missingParentRounds == 1) {
			this.client.create().withMode(CreateMode.CONTAINER).inBackground(IGNORED).forPath(this.basePath);
		}
		if (this.missingParentRounds > 1) {
			this.client.create()
				.creatingParentContainersIfNeeded()
				.withProtection()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.inBackground(reply)
				.forPath(this.nodePrefix, this.nodeData);
		}
		else {
			this.client.create()
				.withProtection()
				.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.inBackground(reply)
				.forPath(this.nodePrefix, this.nodeData);
		}
	}

	/**
	 * A create found the lock path (or a parent of it) missing: whether the next create will make
	 * more of them, that is whether an attempt should try again regardless of its deadline. Once
	 * Curator makes every parent, a missing parent means a CONTAINER was reaped in between.
	 */
	boolean createParentsNext() {
		if (this.missingParentRounds > 1) {
			return false;
		}
		this.missingParentRounds++;
		return true;
	}

	/** Lists the lock path, without a watch. */
	void list(BackgroundCallback reply) throws Exception {
		this.client.getChildren().inBackground(reply).forPath(this.basePath);
	}

	/**
	 * Lists the lock path, without a watch, with a synchronous call on the client's current
	 * ZooKeeper handle: the same request as {@link #list}, whose reply the client's I/O thread
	 * hands straight to the calling thread (docs/lock-protocol.md, "Who waits for a reply"). For
	 * a platform thread only ({@link CallerThread}).
	 * @return the reply; a failure or an interrupt (whose flag is set again) as a failed listing
	 */
	Listing listOnCaller() {
		try {
			Stat stat = new Stat();
			List<String> children = this.client.getZookeeperClient()
				.getZooKeeper()
				.getChildren(ZKPaths.fixForNamespace(this.client.getNamespace(), this.basePath), false, stat);
			return new Listing(KeeperException.Code.OK.intValue(), children, stat);
		}
		catch (KeeperException ex) {
			return Listing.failed(ex.code());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Listing.failed(KeeperException.Code.CONNECTIONLOSS);
		}
		catch (Exception ex) {
			// the client is closing, say: the round lists again in the background, which fails as it should
			return Listing.failed(KeeperException.Code.SYSTEMERROR);
		}
	}

	/** Reads a node's Stat. */
	void stat(String nodePath, BackgroundCallback reply) throws Exception {
		this.client.checkExists().inBackground(reply).forPath(nodePath);
	}

	/**
	 * Whether a grant decided on evidence at zxid {@code evidence} takes its fencing token from a
	 * write of our node ({@link #rewrite}) instead: unless the evidence is a write of our own node
	 * ({@code own}: its create, or that rewrite), or, for an exclusive node, the release after
	 * holding of its last blocker. Any other evidence may be another grant's too: readers granted
	 * together share theirs, and a session's end deletes its nodes on every lock path at one zxid
	 * (docs/lock-protocol.md, "The fencing token").
	 */
	boolean needsOwnWrite(long evidence, boolean releaseOfLastBlocker, Stat own) {
		if (evidence == own.getCzxid() || evidence == own.getMzxid()) {
			return false;
		}
		return this.mode == LockMode.READ || !releaseOfLastBlocker;
	}

	/** Writes our node's data again, unchanged; the reply's Stat carries the write's {@code mzxid}. */
	void rewrite(String nodePath, BackgroundCallback reply) throws Exception {
		this.client.setData().inBackground(reply).forPath(nodePath, this.nodeData);
	}

	/** The ZooKeeper path of the lock path's lock nodes. */
	String basePath() {
		return this.basePath;
	}

	String lockNodePath(String nodeName) {
		return ZKPaths.makePath(this.basePath, nodeName);
	}

	static boolean isOk(CuratorEvent event) {
		return event.getResultCode() == KeeperException.Code.OK.intValue();
	}

	static boolean isNoNode(CuratorEvent event) {
		return event.getResultCode() == KeeperException.Code.NONODE.intValue();
	}

	/**
	 * Whether a reply failed for the connection's sake (Curator's retries ran out while the
	 * ensemble was away), not for the request's: then the request is worth sending again once
	 * connected.
	 */
	static boolean isConnectionProblem(CuratorEvent event) {
		return isConnectionProblem(KeeperException.Code.get(event.getResultCode()));
	}

	/** Whether a failure with {@code code} is the connection's, not the request's. */
	static boolean isConnectionProblem(KeeperException.Code code) {
		return code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.OPERATIONTIMEOUT
				|| code == KeeperException.Code.SESSIONEXPIRED || code == KeeperException.Code.SESSIONMOVED;
	}

	static KeeperException failure(CuratorEvent event) {
		return KeeperException.create(KeeperException.Code.get(event.getResultCode()), event.getPath());
	}

}
