package io.zklock.lock.internal;

/**
 * A lock node granted to this client: its full path inside the namespace, its fencing token
 * ({@code czxid}), the session that owns it, and the connection epoch at which the grant was
 * decided (see {@link SessionGuard}).
 */
record GrantedNode(String nodePath, long fencingToken, long sessionId, long decidedAt) {

}
