package io.zklock.lock.event;

import java.time.Instant;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;

/**
 * A snapshot of one lock node this process holds.
 *
 * @param lockPath the lock path, such as {@code "orders/42"}
 * @param lockName the lock's name for metrics, such as {@code "orders"}
 * @param mode the lock node's mode
 * @param fencingToken the hold's fencing token (a zxid, at least the lock node's {@code czxid})
 * @param nodePath the lock node's full ZooKeeper path inside the namespace
 * @param acquiredAt when the lock node was granted
 * @param owner who owns the hold: a thread, or a call that may be released anywhere
 * @param holderThread the name of the thread that acquired it (for a thread-owned hold, its
 * owner)
 * @param holderThreadId the id ({@link Thread#getId()}) of that thread
 * @param holdCount how many reentrant holds are open on it (always 1 when call-owned)
 * @param state where the hold stands now
 */
public record HeldLock(String lockPath, String lockName, LockMode mode, long fencingToken, String nodePath,
		Instant acquiredAt, HoldOwner owner, String holderThread, long holderThreadId, int holdCount,
		LockState state) {

}
