package io.zklock.endpoint;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@code GET /actuator/locks} returns: the lock nodes this instance holds.
 *
 * @param timestamp when the snapshot was taken, on this instance's clock
 * @param sessionId this instance's ZooKeeper session id in hexadecimal (such as
 * {@code "0x1000a3f5c2b0001"}), {@code null} while disconnected; it matches
 * {@link LockNodeDescriptor#sessionId()} of this instance's lock nodes
 * @param rootPath the lock root that lock paths are relative to, such as {@code "/locks"}
 * @param locks the held lock nodes, oldest first
 */
public record HeldLocksDescriptor(Instant timestamp, @Nullable String sessionId, String rootPath,
		List<HeldLockDescriptor> locks) {

}
