package io.zklock.lock.internal;

import java.util.ArrayList;
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
 * @param duplicates the other nodes with the node's protected id: nodes of its own create that
 * Curator's protected mode left (see docs/lock-protocol.md), which block nothing and must go;
 * empty if the node is not listed
 */
record QueuePosition(boolean listed, @Nullable String blocker, boolean soleBlocker, List<String> duplicates) {

	private static final int SEQUENCE_LENGTH = 10;

	QueuePosition(boolean listed, @Nullable String blocker, boolean soleBlocker) {
		this(listed, blocker, soleBlocker, List.of());
	}

	/**
	 * Reads the position in one pass over the listing, without sorting it or parsing names
	 * into objects: it runs on ZooKeeper's event thread for every listing, whose length is the
	 * queue's. The queue order is the ten-digit sequence suffix, as in Curator and
	 * {@link LockNodeName#sortedLockNodes(List)}; children that are not lock nodes are ignored, and
	 * so are the node's duplicates (its own, never its blockers).
	 */
	static QueuePosition of(List<String> children, String nodeName) {
		LockNodeName self = LockNodeName.parse(nodeName);
		if (self == null || !children.contains(nodeName)) {
			return new QueuePosition(false, null, false);
		}
		String protectedId = ProtectedNodes.protectedPrefix(nodeName);
		List<String> duplicates = List.of();
		boolean reader = self.mode() == LockMode.READ;
		String blocker = null;
		int blockers = 0;
		for (String child : children) {
			if (protectedId != null && child.length() == nodeName.length() && child.startsWith(protectedId)) {
				if (!child.equals(nodeName)) {
					duplicates = (duplicates.isEmpty()) ? new ArrayList<>(1) : duplicates;
					duplicates.add(child);
				}
				continue;
			}
			LockMode mode = modeOf(child);
			if (mode == null || (reader && !mode.excludesReaders()) || compareSequences(child, nodeName) >= 0) {
				continue;
			}
			blockers++;
			if (blocker == null || compareSequences(child, blocker) > 0) {
				blocker = child;
			}
		}
		return new QueuePosition(true, blocker, blocker != null && blockers == 1, duplicates);
	}

	/** How many lock nodes of the listing come before {@code nodeName} in the queue. */
	static int nodesBefore(List<String> children, String nodeName) {
		int before = 0;
		for (String child : children) {
			if (modeOf(child) != null && compareSequences(child, nodeName) < 0) {
				before++;
			}
		}
		return before;
	}

	/** The first lock node of the listing in queue order, or {@code ""} if it has none. */
	static String first(List<String> children) {
		String first = "";
		for (String child : children) {
			if (modeOf(child) != null && (first.isEmpty() || compareSequences(child, first) < 0)) {
				first = child;
			}
		}
		return first;
	}

	boolean holds() {
		return this.listed && this.blocker == null;
	}

	/** The blocker of a listed node that does not hold. */
	String waitsFor() {
		if (this.blocker == null) {
			throw new IllegalStateException("a node that holds, or is not listed, waits for no blocker");
		}
		return this.blocker;
	}

	/**
	 * Whether the blocker is an exclusive node ({@code EXCLUSIVE}, {@code WRITE} or Curator's
	 * {@code -lock-}), whose release after holding proves itself; {@code false} if there is none.
	 */
	boolean blockerExcludesReaders() {
		LockMode mode = (this.blocker != null) ? modeOf(this.blocker) : null;
		return mode != null && mode.excludesReaders();
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
