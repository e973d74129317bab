package io.zklock.lock.event;

import io.zklock.lock.LockMode;

/**
 * What a lock event is about: one lock path in one mode, with its name for metrics.
 *
 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
 * @param lockName the lock's name for metrics and logs, a label of bounded cardinality such as
 * {@code "orders"}: the annotation's path or the caller's declared name, else the first
 * segment of the lock path
 * @param mode the requested lock mode
 */
public record LockTarget(String lockPath, String lockName, LockMode mode) {

}
