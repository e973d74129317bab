package io.zklock.lock.inspection;

import java.time.Instant;

import io.zklock.lock.LockMode;

/**
 * One lock node in the queue of a lock path, as ZooKeeper has it: a holder or a waiter, of
 * any process.
 *
 * @param nodeName the node's name, such as {@code "_c_5e1…-lock-0000000007"}
 * @param mode the mode its name marks
 * @param sequence its sequence number (the name's ten-digit suffix), which orders the queue
 * @param holder whether it holds the lock now (nothing it must wait for precedes it)
 * @param fencingToken the zxid of its last write ({@code mzxid}: its create, or the write a
 * holder took its token from): a holder's fencing token is at least this, and equal to it when the
 * lock was free when it queued
 * @param createdAt its creation time, from the server's clock
 * @param sessionId the session that owns it ({@code ephemeralOwner})
 * @param data the text its data carries (for example an instance id), empty if none
 */
public record QueuedNode(String nodeName, LockMode mode, long sequence, boolean holder, long fencingToken,
		Instant createdAt, long sessionId, String data) {

}
