package io.zklock.lock.internal;

/**
 * A lock node granted to this client: its full path inside the namespace, its fencing token
 * (the zxid of the grant's evidence, see docs/lock-protocol.md), the session that owns it, and the connection epoch at which the grant was
 * decided (see {@link SessionGuard}).
 */
record GrantedNode(String nodePath, long fencingToken, long sessionId, long decidedAt) {

}
