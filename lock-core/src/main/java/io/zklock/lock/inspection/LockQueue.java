package io.zklock.lock.inspection;

import java.util.List;

/**
 * The queue of one lock path as ZooKeeper has it, from {@link LockQueueInspector}.
 *
 * @param lockPath the lock path, such as {@code "orders/42"}
 * @param zooKeeperPath the full ZooKeeper path of its lock nodes' parent, namespace included,
 * such as {@code "/zklock/locks/orders/42"}
 * @param nodes the lock nodes, holders first, then waiters in the order they will be served
 * @param childLockPaths the lock paths one level below, such as {@code "orders/42/lines"},
 * sorted
 */
public record LockQueue(String lockPath, String zooKeeperPath, List<QueuedNode> nodes, List<String> childLockPaths) {

}
