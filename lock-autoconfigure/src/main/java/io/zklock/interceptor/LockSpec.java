package io.zklock.interceptor;

import io.zklock.lock.LockMode;

/**
 * One lock of an annotated method, before its key is evaluated.
 *
 * @param path the lock path and key
 * @param mode the lock mode
 */
record LockSpec(KeyedPath path, LockMode mode) {

}
