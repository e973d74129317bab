package io.zklock.lock.internal;

import org.apache.zookeeper.data.Stat;

/**
 * The evidence zxid of a grant decided on a listing (docs/lock-protocol.md, "The fencing
 * token"): our node's {@code czxid} when the listing proves that no child ever left the lock
 * path, else the lock path's {@code pzxid} in the listing's Stat (which is our {@code czxid} too
 * when nothing changed the children since our create). Pure: no ZooKeeper call.
 *
 * <p>
 * A ZooKeeper server counts a parent's creates, and reports as its {@code cversion} the count of
 * creates and deletes, {@code 2 × creates − children} ({@code DataNode.copyStat}; a server that
 * reported the creates alone would do as well here). Either way the {@code cversion} equals the
 * number of children exactly when no child was ever deleted. Then the nodes before ours in the
 * listing are those that stood there at our create, and a grant on that listing was certain at our
 * create already, whoever queued behind us meanwhile. On a lock path that ever lost a node, this
 * cannot be told from a listing, and the {@code pzxid} is taken: larger, never wrong.
 */
final class ListingEvidence {

	private ListingEvidence() {
	}

	/**
	 * @param parent the lock path's Stat that came with the listing
	 * @param czxid our node's {@code czxid}
	 * @return the zxid to take the fencing token from
	 */
	static long of(Stat parent, long czxid) {
		return (parent.getCversion() == parent.getNumChildren()) ? czxid : parent.getPzxid();
	}

}
