package io.zklock.endpoint;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockMode;

/**
 * One lock node in the queue of a lock path, of any instance.
 *
 * @param position its place in the queue, {@code 0} first
 * @param nodeName the node's name, such as {@code "_c_5e1…-lock-0000000007"}
 * @param mode the mode its name marks
 * @param holder whether it holds the lock now; otherwise it waits
 * @param fencingToken the zxid of its last write ({@code mzxid}); a holder's fencing token is at
 * least this
 * @param createdAt when it was created (queued), on the ZooKeeper server's clock
 * @param ageMillis how long ago it was created, in milliseconds: the hold time of a holder
 * so far plus its wait, or the wait of a waiter so far
 * @param sessionId the owning session in hexadecimal, such as {@code "0x1000a3f5c2b0001"}
 * @param instanceId the instance id the node's data carries ({@code zklock.instance-id} of the
 * instance that created it), empty if none
 * @param createdBy what the node's data says of the process that created it, such as
 * {@code "host web-2, process 4711, application 'orders', instance 'web-2:8080'"}
 * ({@link io.zklock.internal.LockNodeData#describe(byte[])})
 * @param thisInstance whether the node belongs to this instance's session
 * @param holderThread for a node this instance holds, the thread that acquired it; else
 * {@code null}
 */
public record LockNodeDescriptor(int position, String nodeName, LockMode mode, boolean holder, long fencingToken,
		Instant createdAt, long ageMillis, String sessionId, String instanceId, String createdBy,
		boolean thisInstance, @Nullable String holderThread) {

}
