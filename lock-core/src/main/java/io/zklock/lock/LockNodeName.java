package io.zklock.lock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One child of a lock path parsed as a lock node: its name, its mode (from the Curator
 * node-name marker) and its ten-digit sequence suffix. Children that are not lock nodes
 * are skipped by {@link #sortedLockNodes(List)}.
 */
record LockNodeName(String name, LockMode mode, String sequence) {


	private static final int SEQUENCE_LENGTH = 10;

	private static final Comparator<LockNodeName> BY_SEQUENCE = Comparator.comparing(LockNodeName::sequence);

	static @Nullable LockNodeName parse(String name) {
		if (name.length() <= SEQUENCE_LENGTH) {
			return null;
		}
		int split = name.length() - SEQUENCE_LENGTH;
		String prefix = name.substring(0, split);
		String sequence = name.substring(split);
		for (LockMode mode : LockMode.values()) {
			if (prefix.endsWith(mode.nodeMarker())) {
				return new LockNodeName(name, mode, sequence);
			}
		}
		return null;
	}

	/** The lock nodes among {@code children}, in queue order (by sequence, as Curator sorts them). */
	static List<LockNodeName> sortedLockNodes(List<String> children) {
		List<LockNodeName> nodes = new ArrayList<>(children.size());
		for (String child : children) {
			LockNodeName node = parse(child);
			if (node != null) {
				nodes.add(node);
			}
		}
		nodes.sort(BY_SEQUENCE);
		return nodes;
	}

	/**
	 * The node a waiter at {@code index} must wait for, or {@code null} if it holds the lock.
	 * An exclusive or write waiter waits for its immediate predecessor; a reader waits only
	 * for the last node before it that excludes readers.
	 */
	static @Nullable LockNodeName blocker(List<LockNodeName> queue, int index) {
		LockNodeName self = queue.get(index);
		if (self.mode() != LockMode.READ) {
			return (index > 0) ? queue.get(index - 1) : null;
		}
		for (int i = index - 1; i >= 0; i--) {
			if (queue.get(i).mode().excludesReaders()) {
				return queue.get(i);
			}
		}
		return null;
	}

}
