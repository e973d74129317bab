package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.zklock.lock.LockMode;
import org.jspecify.annotations.Nullable;

/**
 * One child of a lock path parsed as a lock node: its name, its mode (from the Curator
 * node-name marker) and its ten-digit sequence suffix. Children that are not lock nodes
 * are skipped by {@link #sortedLockNodes(List)}.
 *
 * <p>
 * Internal: not part of zklock's API, no compatibility promise; public only for
 * {@code io.zklock.lock.inspection.LockQueueInspector}. Immutable.
 *
 * @param name the node's name, such as {@code "_c_5e1…-lock-0000000007"}
 * @param mode the mode its name marks
 * @param sequence its ten-digit sequence suffix
 */
public record LockNodeName(String name, LockMode mode, String sequence) {

	private static final int SEQUENCE_LENGTH = 10;

	private static final Comparator<LockNodeName> BY_SEQUENCE = Comparator.comparing(LockNodeName::sequence);

	/**
	 * Parses a child of a lock path.
	 * @param name the child's name
	 * @return the lock node, or {@code null} if the name is not a lock node's
	 */
	public static @Nullable LockNodeName parse(String name) {
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

	/**
	 * The lock nodes among {@code children}, in queue order (by sequence, as Curator sorts them).
	 * @param children the children of a lock path
	 * @return the lock nodes, sorted
	 */
	public static List<LockNodeName> sortedLockNodes(List<String> children) {
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
	 * @param queue lock nodes in queue order, from {@link #sortedLockNodes(List)}
	 * @param index the waiter's place in {@code queue}
	 * @return the blocking node, or {@code null}
	 */
	public static @Nullable LockNodeName blocker(List<LockNodeName> queue, int index) {
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
