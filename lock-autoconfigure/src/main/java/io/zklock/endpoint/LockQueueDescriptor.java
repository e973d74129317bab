package io.zklock.endpoint;

import java.time.Instant;
import java.util.List;

/**
 * What {@code GET /actuator/locks/{lockPath}} returns: the queue of one lock path in
 * ZooKeeper, over all instances.
 *
 * @param timestamp when the queue was read, on this instance's clock
 * @param lockPath the lock path, such as {@code "inventory/sku-1"}
 * @param zooKeeperPath the ZooKeeper path of the lock nodes' parent, namespace included,
 * such as {@code "/zklock/locks/inventory/sku-1"}
 * @param nodes the lock nodes in the order they are served: holders first (several readers
 * may hold together), then waiters; empty if nobody holds or waits
 * @param subPaths lock paths one level below this one that exist in ZooKeeper now, such as
 * {@code ["inventory/sku-1", "inventory/sku-2"]} for {@code "inventory"}, sorted
 */
public record LockQueueDescriptor(Instant timestamp, String lockPath, String zooKeeperPath,
		List<LockNodeDescriptor> nodes, List<String> subPaths) {

}
