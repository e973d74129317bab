package io.zklock.lock.internal;

import java.util.List;

import org.apache.zookeeper.data.Stat;

/**
 * The evidence zxid of a grant decided on a listing (docs/lock-protocol.md, "The fencing
 * token"): our node's {@code czxid} when no child has left the lock path since our create, else
 * the lock path's {@code pzxid} in the listing's Stat. Pure: no ZooKeeper call.
 *
 * <p>
 * Every create and every delete of a child adds one to the parent's {@code cversion}, and our
 * node's sequence number is the {@code cversion} before our create. So if the children with a
 * larger sequence number than ours account for every change since our create, no child was
 * deleted since: the nodes before ours in the listing are those that were there at our create,
 * and a grant on that listing was certain at our create already.
 */
final class ListingEvidence {

	private static final int SEQUENCE_LENGTH = 10;

	private ListingEvidence() {
	}

	/**
	 * @param children the listing
	 * @param ourName our node's name, in the listing
	 * @param parent the lock path's Stat that came with the listing
	 * @param czxid our node's {@code czxid}
	 * @return the zxid to take the fencing token from
	 */
	static long of(List<String> children, String ourName, Stat parent, long czxid) {
		long ours = sequence(ourName);
		if (ours < 0) {
			return parent.getPzxid();
		}
		int later = 0;
		for (String child : children) {
			// only lock nodes: their sequence numbers are the parent's cversion, other children's names are anything
			if (LockNodeName.parse(child) != null && sequence(child) > ours) {
				later++;
			}
		}
		return (parent.getCversion() - ours - 1 == later) ? czxid : parent.getPzxid();
	}

	/** A child's ten-digit sequence suffix, or -1 if it has none. */
	private static long sequence(String name) {
		int split = name.length() - SEQUENCE_LENGTH;
		if (split <= 0) {
			return -1;
		}
		long value = 0;
		for (int i = split; i < name.length(); i++) {
			char digit = name.charAt(i);
			if (digit < '0' || digit > '9') {
				return -1;
			}
			value = value * 10 + (digit - '0');
		}
		return value;
	}

}
