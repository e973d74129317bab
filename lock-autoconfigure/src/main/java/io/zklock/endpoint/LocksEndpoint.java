package io.zklock.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.curator.CuratorZookeeperClient;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.HeldLock;
import io.zklock.lock.LockCoordinator;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockPaths;
import io.zklock.lock.QueuedNode;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

/**
 * The {@code locks} actuator endpoint, read-only by default:
 * <ul>
 * <li>{@code GET /actuator/locks}: the lock nodes this instance holds
 * ({@link HeldLocksDescriptor});</li>
 * <li>{@code GET /actuator/locks/{lockPath}}, such as {@code /actuator/locks/orders/42}: the
 * queue of that lock path in ZooKeeper, holders and waiters of every instance in the order
 * they are served ({@link LockQueueDescriptor}). A lock path that is invalid answers
 * {@code 400}.</li>
 * </ul>
 * Listing held locks makes no ZooKeeper call; reading a queue makes one call per lock node
 * plus two, and fails while ZooKeeper is unreachable. Thread-safe.
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
public class LocksEndpoint {

	private static final Pattern LOCK_NODE_NAME = Pattern.compile(Stream.of(LockMode.values())
		.map((mode) -> Pattern.quote(mode.nodeMarker()))
		.collect(Collectors.joining("|", ".*(?:", ")\\d{10}")));

	private final LockCoordinator coordinator;

	/**
	 * Creates the endpoint.
	 * @param coordinator the lock engine of this instance
	 */
	public LocksEndpoint(LockCoordinator coordinator) {
		if (coordinator == null) {
			throw new IllegalArgumentException("'coordinator' must not be null");
		}
		this.coordinator = coordinator;
	}

	/**
	 * Lists the lock nodes this instance holds.
	 * @return the held locks, oldest first
	 */
	@ReadOperation
	public HeldLocksDescriptor heldLocks() {
		Instant now = Instant.now();
		List<HeldLockDescriptor> locks = this.coordinator.getHeldLocks()
			.stream()
			.map((held) -> new HeldLockDescriptor(held.lockPath(), held.lockName(), held.mode(), held.fencingToken(),
					held.acquiredAt(), millisBetween(held.acquiredAt(), now), held.holderThread(), held.holdCount(),
					held.nodePath()))
			.toList();
		long sessionId = currentSessionId();
		return new HeldLocksDescriptor(now, (sessionId != 0) ? hex(sessionId) : null, this.coordinator.getRootPath(),
				locks);
	}

	/**
	 * Reads the queue of one lock path from ZooKeeper.
	 * @param lockPath the lock path's segments, such as {@code ["orders", "42"]}
	 * @return the queue, and the lock paths one level below
	 * @throws InvalidEndpointRequestException if the lock path is invalid
	 * @throws IllegalStateException if ZooKeeper fails or cannot be reached
	 */
	@ReadOperation
	public LockQueueDescriptor lockQueue(@Selector(match = Match.ALL_REMAINING) String[] lockPath) {
		String rootPath = this.coordinator.getRootPath();
		CuratorFramework client = this.coordinator.getClient();
		String namespace = client.getNamespace();
		boolean namespaced = namespace != null && !namespace.isEmpty();
		String relative;
		String zooKeeperPath;
		try {
			relative = LockPaths.normalize(String.join("/", lockPath), rootPath);
			zooKeeperPath = LockPaths.toZooKeeperPath(relative, rootPath, namespaced);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage(), ex);
		}
		List<QueuedNode> queue;
		List<String> children;
		try {
			queue = this.coordinator.inspectQueue(relative);
			children = children(client, zooKeeperPath);
		}
		catch (Exception ex) {
			throw new IllegalStateException(
					"Could not read the queue of lock path '" + relative + "' (ZooKeeper path " + zooKeeperPath + "): "
							+ ex,
					ex);
		}
		Instant now = Instant.now();
		long sessionId = currentSessionId();
		Map<String, String> holderThreads = new HashMap<>();
		for (HeldLock held : this.coordinator.getHeldLocks()) {
			holderThreads.put(held.nodePath(), held.holderThread());
		}
		List<LockNodeDescriptor> nodes = new ArrayList<>(queue.size());
		for (QueuedNode node : queue) {
			boolean thisInstance = sessionId != 0 && node.sessionId() == sessionId;
			nodes.add(new LockNodeDescriptor(nodes.size(), node.nodeName(), node.mode(), node.holder(),
					node.fencingToken(), node.createdAt(), millisBetween(node.createdAt(), now), hex(node.sessionId()),
					node.data(), thisInstance,
					thisInstance ? holderThreads.get(ZKPaths.makePath(zooKeeperPath, node.nodeName())) : null));
		}
		List<String> subPaths = children.stream()
			.filter((child) -> !LOCK_NODE_NAME.matcher(child).matches())
			.sorted()
			.map((child) -> relative + "/" + child)
			.toList();
		String fullPath = namespaced ? ZKPaths.makePath(namespace, zooKeeperPath) : zooKeeperPath;
		return new LockQueueDescriptor(now, relative, fullPath, nodes, subPaths);
	}

	private static List<String> children(CuratorFramework client, String zooKeeperPath) throws Exception {
		try {
			return client.getChildren().forPath(zooKeeperPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	private long currentSessionId() {
		CuratorZookeeperClient zookeeperClient = this.coordinator.getClient().getZookeeperClient();
		if (!zookeeperClient.isConnected()) {
			return 0;
		}
		try {
			return zookeeperClient.getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	private static long millisBetween(@Nullable Instant start, Instant end) {
		return (start != null) ? Math.max(0, Duration.between(start, end).toMillis()) : 0;
	}

	private static String hex(long sessionId) {
		return "0x" + Long.toHexString(sessionId);
	}

}
