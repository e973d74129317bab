package io.zklock.lock.internal;

/**
 * A token a handoff write of a {@link LocalChain} made: the node handed with it, and which waiter
 * may take it (docs/lock-protocol.md, "The handoff write").
 *
 * @param node the node and its new fencing token
 * @param ticketsBefore the tickets the chain had given out when the write was reserved: a waiter
 * with a ticket as large began after the write may have been applied, and may not take it
 * @param writtenAtNanos when the write was sent ({@link System#nanoTime()}): the session lives at
 * least a session timeout after that
 */
record HandoffToken(GrantedNode node, long ticketsBefore, long writtenAtNanos) {

	/**
	 * Whether the waiter with {@code ticket} may take this token at an instant when tokens written
	 * before {@code staleBefore} ({@link System#nanoTime()}) are past the session's lease.
	 */
	boolean mayGoTo(long ticket, long staleBefore) {
		return ticket < this.ticketsBefore && this.writtenAtNanos - staleBefore >= 0;
	}

}
