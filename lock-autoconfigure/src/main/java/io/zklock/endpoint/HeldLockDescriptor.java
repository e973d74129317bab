package io.zklock.endpoint;

import java.time.Instant;

import io.zklock.lock.LockMode;

/**
 * One lock node this instance holds, as {@code GET /actuator/locks} lists it.
 *
 * @param lockPath the lock path, such as {@code "orders/42"}
 * @param lockName the lock's name in metrics, such as {@code "orders"}
 * @param mode the lock's mode
 * @param fencingToken the lock node's fencing token
 * @param heldSince when the lock was granted
 * @param heldForMillis how long it has been held, in milliseconds
 * @param holderThread the name of the thread that acquired it
 * @param holdCount how many reentrant holds are open on it
 * @param nodePath the lock node's ZooKeeper path inside the client's namespace
 */
public record HeldLockDescriptor(String lockPath, String lockName, LockMode mode, long fencingToken,
		Instant heldSince, long heldForMillis, String holderThread, int holdCount, String nodePath) {

}
