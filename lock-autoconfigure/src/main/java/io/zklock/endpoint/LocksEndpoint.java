package io.zklock.endpoint;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.curator.CuratorZookeeperClient;
import org.jspecify.annotations.Nullable;

import io.zklock.internal.LockNodeData;
import io.zklock.internal.LockPaths;
import io.zklock.lock.LockEngine;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.inspection.LockQueue;
import io.zklock.lock.inspection.LockQueueInspector;
import io.zklock.lock.inspection.QueuedNode;

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
 * Lock paths appear twice: {@code lockPath} as stored, where a {@code @DistributedLock} key
 * holding {@code '/'} or {@code '%'} is one encoded segment ({@code "orders/a%2Fb"} for the key
 * {@code "a/b"}), and {@code displayPath} with every segment decoded ({@code "orders/a/b"}),
 * for people. The URL takes the stored form, each segment URL-encoded as usual:
 * {@code /actuator/locks/orders/a%252Fb}.
 * Listing held locks makes no ZooKeeper call; reading a queue makes one call per lock node
 * plus two, and fails while ZooKeeper is unreachable. Thread-safe.
 */
@Endpoint(id = "locks", defaultAccess = Access.READ_ONLY)
public class LocksEndpoint {

	private static final String NODE_DATA_PREFIX = "zklock ";

	private static final String INSTANCE_FIELD = "instance=";

	private final LockEngine engine;

	private final LockQueueInspector inspector;

	/**
	 * Creates the endpoint.
	 * @param engine the lock engine of this instance
	 */
	public LocksEndpoint(LockEngine engine) {
		if (engine == null) {
			throw new IllegalArgumentException("'engine' must not be null");
		}
		this.engine = engine;
		this.inspector = new LockQueueInspector(engine);
	}

	/**
	 * Lists the lock nodes this instance holds.
	 * @return the held locks, oldest first
	 */
	@ReadOperation
	public HeldLocksDescriptor heldLocks() {
		Instant now = Instant.now();
		List<HeldLockDescriptor> locks = this.engine.getHeldLocks()
			.stream()
			.map((held) -> new HeldLockDescriptor(held.lockPath(), displayPath(held.lockPath()), held.lockName(),
					held.mode(), held.fencingToken(), held.acquiredAt(), millisBetween(held.acquiredAt(), now),
					held.holderThread(), held.holdCount(), held.nodePath()))
			.toList();
		long sessionId = currentSessionId();
		return new HeldLocksDescriptor(now, (sessionId != 0) ? hex(sessionId) : null,
				this.engine.getRootPath(), locks);
	}

	/**
	 * Reads the queue of one lock path from ZooKeeper.
	 * @param lockPath the lock path's segments as stored, such as {@code ["orders", "42"]} or
	 * {@code ["orders", "a%2Fb"]}
	 * @return the queue, and the lock paths one level below
	 * @throws InvalidEndpointRequestException if the lock path is invalid
	 * @throws IllegalStateException if ZooKeeper fails or cannot be reached
	 */
	@ReadOperation
	public LockQueueDescriptor lockQueue(@Selector(match = Match.ALL_REMAINING) String[] lockPath) {
		String requested = String.join("/", lockPath);
		LockQueue queue;
		try {
			queue = this.inspector.inspectQueue(requested);
		}
		catch (IllegalArgumentException ex) {
			String reason = String.valueOf(ex.getMessage());
			throw new InvalidEndpointRequestException(reason, reason, ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read the queue of lock path '" + requested + "': " + ex, ex);
		}
		Instant now = Instant.now();
		long sessionId = currentSessionId();
		Map<Long, String> holderThreads = new HashMap<>();
		for (HeldLock held : this.engine.getHeldLocks()) {
			holderThreads.put(held.fencingToken(), held.holderThread());
		}
		List<LockNodeDescriptor> nodes = new ArrayList<>(queue.nodes().size());
		for (QueuedNode node : queue.nodes()) {
			boolean thisInstance = sessionId != 0 && node.sessionId() == sessionId;
			nodes.add(new LockNodeDescriptor(nodes.size(), node.nodeName(), node.mode(), node.holder(),
					node.fencingToken(), node.createdAt(), millisBetween(node.createdAt(), now), hex(node.sessionId()),
					instanceId(node.data()), LockNodeData.describe(node.data().getBytes(StandardCharsets.UTF_8)),
					thisInstance, thisInstance ? holderThreads.get(node.fencingToken()) : null));
		}
		return new LockQueueDescriptor(now, queue.lockPath(), displayPath(queue.lockPath()), queue.zooKeeperPath(),
				nodes, queue.childLockPaths());
	}

	/**
	 * The instance id a lock node's data carries: the {@code instance=} field of zklock's node data
	 * ({@link LockNodeData}), empty if it has none; the whole text for other data (such as the
	 * instance id alone, which zklock wrote before it wrote {@link LockNodeData}).
	 */
	static String instanceId(String data) {
		if (!data.startsWith(NODE_DATA_PREFIX)) {
			return data;
		}
		for (String field : data.substring(NODE_DATA_PREFIX.length()).split(" ")) {
			if (field.startsWith(INSTANCE_FIELD)) {
				return field.substring(INSTANCE_FIELD.length());
			}
		}
		return "";
	}

	/** The lock path with each segment decoded, for people to read. */
	static String displayPath(String lockPath) {
		return Arrays.stream(lockPath.split("/", -1)).map(LockPaths::decodeSegment).collect(Collectors.joining("/"));
	}

	private long currentSessionId() {
		CuratorZookeeperClient zookeeperClient = this.engine.getClient().getZookeeperClient();
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
