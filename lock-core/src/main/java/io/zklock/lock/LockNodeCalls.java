package io.zklock.lock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The ZooKeeper requests of one acquire, all sent with Curator's background API (nothing here
 * waits for a reply): the protected {@code EPHEMERAL_SEQUENTIAL} create of a lock node under
 * CONTAINER parents, the listing of the lock path, and the read of a lock node's {@code Stat}.
 */
final class LockNodeCalls {

	private final CuratorFramework client;

	private final String basePath;

	private final String nodePrefix;

	private final byte[] nodeData;

	LockNodeCalls(CuratorFramework client, String basePath, LockMode mode, byte[] nodeData) {
		this.client = client;
		this.basePath = basePath;
		this.nodePrefix = ZKPaths.makePath(basePath, mode.nodeMarker());
		this.nodeData = nodeData;
	}

	/** Creates our lock node; the reply carries its path and (unless protected mode adopted it) its Stat. */
	void create(BackgroundCallback reply) throws Exception {
		this.client.create()
			.creatingParentContainersIfNeeded()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground(reply)
			.forPath(this.nodePrefix, this.nodeData);
	}

	/** Lists the lock path, without a watch. */
	void list(BackgroundCallback reply) throws Exception {
		this.client.getChildren().inBackground(reply).forPath(this.basePath);
	}

	/** Reads a node's Stat. */
	void stat(String nodePath, BackgroundCallback reply) throws Exception {
		this.client.checkExists().inBackground(reply).forPath(nodePath);
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
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		return code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.OPERATIONTIMEOUT
				|| code == KeeperException.Code.SESSIONEXPIRED || code == KeeperException.Code.SESSIONMOVED;
	}

	static KeeperException failure(CuratorEvent event) {
		return KeeperException.create(KeeperException.Code.get(event.getResultCode()), event.getPath());
	}

}
