package io.zklock.lock;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Where a lock node stands in one listing of its lock path: gone from it, holding, or waiting
 * for one blocking node. Pure: no ZooKeeper call.
 *
 * @param listed whether the node is in the listing
 * @param blocker the node it must wait for (immediate predecessor, or for a reader the last
 * smaller node that excludes readers); {@code null} if it holds the lock or is not listed
 * @param soleBlocker whether that blocker was the only node blocking it, so that its deletion
 * is the grant (sequence numbers only grow while the parent exists)
 */
record QueuePosition(boolean listed, @Nullable String blocker, boolean soleBlocker) {

	static QueuePosition of(List<String> children, String nodeName) {
		List<LockNodeName> nodes = LockNodeName.sortedLockNodes(children);
		int index = LockNodeName.indexOf(nodes, nodeName);
		if (index < 0) {
			return new QueuePosition(false, null, false);
		}
		LockNodeName blocker = LockNodeName.blocker(nodes, index);
		return (blocker != null)
				? new QueuePosition(true, blocker.name(), LockNodeName.blockerCount(nodes, index) == 1)
				: new QueuePosition(true, null, false);
	}

	boolean holds() {
		return this.listed && this.blocker == null;
	}

}
