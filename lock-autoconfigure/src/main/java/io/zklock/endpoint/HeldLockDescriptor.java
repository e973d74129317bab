package io.zklock.endpoint;

import java.time.Instant;

import io.zklock.lock.LockMode;

/**
 * One lock node this instance holds, as {@code GET /actuator/locks} lists it.
 *
 * @param lockPath the lock path as stored in ZooKeeper, such as {@code "orders/42"} or, for a
 * {@code @DistributedLock} key {@code "a/b"}, {@code "orders/a%2Fb"}; the form
 * {@code GET /actuator/locks/{lockPath}} takes
 * @param displayPath the lock path for people to read, each segment decoded
 * ({@link io.zklock.internal.LockPaths#decodeSegment(String)}): {@code "orders/a/b"}
 * @param lockName the lock's name in metrics, such as {@code "orders"}
 * @param mode the lock's mode
 * @param fencingToken the lock node's fencing token
 * @param heldSince when the lock was granted
 * @param heldForMillis how long it has been held, in milliseconds
 * @param holderThread the name of the thread that acquired it
 * @param holdCount how many reentrant holds are open on it
 * @param nodePath the lock node's ZooKeeper path inside the client's namespace
 */
public record HeldLockDescriptor(String lockPath, String displayPath, String lockName, LockMode mode, long fencingToken,
		Instant heldSince, long heldForMillis, String holderThread, int holdCount, String nodePath) {

}
