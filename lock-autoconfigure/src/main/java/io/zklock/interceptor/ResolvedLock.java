package io.zklock.interceptor;

import io.zklock.lock.LockMode;

/**
 * One lock of one call: its lock path with the key evaluated.
 *
 * @param path the lock path, such as {@code "orders/42"}
 * @param mode the lock mode
 * @param lockName the annotation's path, the label for metrics
 */
record ResolvedLock(String path, LockMode mode, String lockName) {

}
