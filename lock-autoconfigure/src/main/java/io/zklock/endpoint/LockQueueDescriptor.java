package io.zklock.endpoint;

import java.time.Instant;
import java.util.List;

/**
 * What {@code GET /actuator/locks/{lockPath}} returns: the queue of one lock path in
 * ZooKeeper, over all instances.
 *
 * @param timestamp when the queue was read, on this instance's clock
 * @param lockPath the lock path as stored in ZooKeeper, such as {@code "inventory/sku-1"} or
 * {@code "orders/a%2Fb"} for a {@code @DistributedLock} key {@code "a/b"}
 * @param displayPath the lock path for people to read, each segment decoded
 * ({@link io.zklock.internal.LockPaths#decodeSegment(String)}): {@code "orders/a/b"}
 * @param zooKeeperPath the ZooKeeper path of the lock nodes' parent, namespace included,
 * such as {@code "/zklock/locks/inventory/sku-1"}
 * @param nodes the lock nodes in the order they are served: holders first (several readers
 * may hold together), then waiters; empty if nobody holds or waits
 * @param subPaths lock paths one level below this one that exist in ZooKeeper now, as stored
 * (encoded, ready for the URL), such as {@code ["inventory/sku-1", "inventory/sku-2"]} for
 * {@code "inventory"}, sorted
 */
public record LockQueueDescriptor(Instant timestamp, String lockPath, String displayPath, String zooKeeperPath,
		List<LockNodeDescriptor> nodes, List<String> subPaths) {

}
