package io.zklock.lock.internal;

import java.util.List;

import io.zklock.lock.LockMode;
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

	private static final int SEQUENCE_LENGTH = 10;

	/**
	 * Reads the position in one pass over the listing, without sorting it or parsing names
	 * into objects: it runs on ZooKeeper's event thread for every listing, whose length is the
	 * queue's. The queue order is the ten-digit sequence suffix, as in Curator and
	 * {@link LockNodeName#sortedLockNodes(List)}; children that are not lock nodes are ignored.
	 */
	static QueuePosition of(List<String> children, String nodeName) {
		LockNodeName self = LockNodeName.parse(nodeName);
		if (self == null || !children.contains(nodeName)) {
			return new QueuePosition(false, null, false);
		}
		boolean reader = self.mode() == LockMode.READ;
		String blocker = null;
		int blockers = 0;
		for (String child : children) {
			LockMode mode = modeOf(child);
			if (mode == null || (reader && !mode.excludesReaders()) || compareSequences(child, nodeName) >= 0) {
				continue;
			}
			blockers++;
			if (blocker == null || compareSequences(child, blocker) > 0) {
				blocker = child;
			}
		}
		return (blocker != null) ? new QueuePosition(true, blocker, blockers == 1)
				: new QueuePosition(true, null, false);
	}

	boolean holds() {
		return this.listed && this.blocker == null;
	}

	/** The mode of a lock node's name, or {@code null} if the name is not a lock node's. */
	private static @Nullable LockMode modeOf(String name) {
		int split = name.length() - SEQUENCE_LENGTH;
		if (split <= 0) {
			return null;
		}
		for (LockMode mode : LockMode.values()) {
			String marker = mode.nodeMarker();
			if (split >= marker.length() && name.regionMatches(split - marker.length(), marker, 0, marker.length())) {
				return mode;
			}
		}
		return null;
	}

	/** Compares the sequence suffixes of two lock node names, as strings of ten digits. */
	private static int compareSequences(String a, String b) {
		int offsetA = a.length() - SEQUENCE_LENGTH;
		int offsetB = b.length() - SEQUENCE_LENGTH;
		for (int i = 0; i < SEQUENCE_LENGTH; i++) {
			int difference = a.charAt(offsetA + i) - b.charAt(offsetB + i);
			if (difference != 0) {
				return difference;
			}
		}
		return 0;
	}

}
