package io.zklock.lock.inspection;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.zklock.lock.LockEngine;
import io.zklock.lock.internal.LockNodeName;
import io.zklock.lock.internal.LockRoot;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Reads the queue of a lock path from ZooKeeper, for operations: holders first, then
 * waiters, in the order they will be served, of every process (zklock's and plain Curator's
 * lock nodes alike). Read-only: one {@code getChildren} and one {@code getData} per node.
 * Thread-safe.
 */
public final class LockQueueInspector {

	private final CuratorFramework client;

	private final LockRoot root;

	/**
	 * Creates an inspector of an engine's lock paths.
	 * @param engine the engine whose client and lock root to read
	 */
	public LockQueueInspector(LockEngine engine) {
		this.client = engine.getClient();
		this.root = new LockRoot(engine.getClient(), engine.getRootPath());
	}

	/**
	 * The lock nodes of a lock path, in queue order.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @return the lock nodes, empty if nobody holds or waits
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws Exception if ZooKeeper fails
	 */
	public List<QueuedNode> inspect(String lockPath) throws Exception {
		return inspectQueue(lockPath).nodes();
	}

	/**
	 * The queue of a lock path, and the lock paths one level below it.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @return the queue; its nodes are empty if nobody holds or waits
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws Exception if ZooKeeper fails
	 */
	public LockQueue inspectQueue(String lockPath) throws Exception {
		String relative = this.root.relative(lockPath);
		String basePath = this.root.zooKeeperPath(relative);
		String fullPath = ZKPaths.fixForNamespace(this.client.getNamespace(), basePath);
		List<String> children;
		try {
			children = this.client.getChildren().forPath(basePath);
		}
		catch (KeeperException.NoNodeException ex) {
			return new LockQueue(relative, fullPath, List.of(), List.of());
		}
		List<String> childLockPaths = children.stream()
			.filter((child) -> LockNodeName.parse(child) == null)
			.sorted()
			.map((child) -> relative + "/" + child)
			.toList();
		return new LockQueue(relative, fullPath, nodes(basePath, children), childLockPaths);
	}

	private List<QueuedNode> nodes(String basePath, List<String> children) throws Exception {
		List<LockNodeName> queue = LockNodeName.sortedLockNodes(children);
		List<QueuedNode> nodes = new ArrayList<>(queue.size());
		for (int i = 0; i < queue.size(); i++) {
			LockNodeName name = queue.get(i);
			Stat stat = new Stat();
			byte[] data;
			try {
				data = this.client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(basePath, name.name()));
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			nodes.add(new QueuedNode(name.name(), name.mode(), Long.parseLong(name.sequence()),
					LockNodeName.blocker(queue, i) == null, stat.getMzxid(), Instant.ofEpochMilli(stat.getCtime()),
					stat.getEphemeralOwner(), (data != null) ? new String(data, StandardCharsets.UTF_8) : ""));
		}
		return nodes;
	}

}
