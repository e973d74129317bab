package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import io.zklock.lock.LockMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QueuePosition} reads a listing in one pass, unsorted: it must agree with the queue
 * order of {@link LockNodeName#sortedLockNodes(List)} and {@link LockNodeName#blocker(List, int)}
 * for every node of any listing, whatever the order ZooKeeper lists them in. Pure logic, no
 * server.
 */
class QueuePositionTests {

	@Test
	void shouldAgreeWithTheSortedQueueForEveryNodeOfRandomListings() {
		Random random = new Random(20261123L);
		for (int listing = 0; listing < 2_000; listing++) {
			List<String> children = randomListing(random, 1 + random.nextInt(40));
			List<LockNodeName> queue = LockNodeName.sortedLockNodes(children);
			for (int index = 0; index < queue.size(); index++) {
				LockNodeName node = queue.get(index);
				assertThat(QueuePosition.of(children, node.name())).as("%s in %s", node.name(), children)
					.isEqualTo(expected(queue, index));
			}
		}
	}

	@Test
	void shouldNotListANodeThatIsNotInTheListing() {
		List<String> children = List.of(name("lock-", 1), name("lock-", 2));
		assertThat(QueuePosition.of(children, name("lock-", 3))).isEqualTo(new QueuePosition(false, null, false));
		assertThat(QueuePosition.of(children, "not-a-lock-node")).isEqualTo(new QueuePosition(false, null, false));
	}

	@Test
	void shouldMarkTheOnlyBlockerAsSole() {
		List<String> children = List.of(name("__READ__", 4), name("__WRIT__", 2), name("__READ__", 3),
				name("__WRIT__", 5), "leases");
		// a reader behind one writer (and a reader, which does not block it)
		assertThat(QueuePosition.of(children, children.get(0))).isEqualTo(new QueuePosition(true, children.get(1), true));
		// a writer behind three nodes
		assertThat(QueuePosition.of(children, children.get(3)))
			.isEqualTo(new QueuePosition(true, children.get(0), false));
		assertThat(QueuePosition.of(children, children.get(1)).holds()).isTrue();
	}

	@Test
	void shouldCountNoNodeOfTheSameCreateAsABlockerAndNameThem() {
		String id = "_c_" + UUID.nameUUIDFromBytes("ours".getBytes()) + "-";
		String duplicate = id + "__WRIT__" + String.format("%010d", 1);
		String ours = id + "__WRIT__" + String.format("%010d", 3);
		String reader = name("__READ__", 2);
		String later = name("lock-", 4);
		List<String> children = List.of(later, ours, reader, duplicate);
		// the other node of our create stands first, but only the reader between blocks us
		assertThat(QueuePosition.of(children, ours))
			.isEqualTo(new QueuePosition(true, reader, true, List.of(duplicate)));
		assertThat(QueuePosition.of(List.of(duplicate, ours), ours))
			.isEqualTo(new QueuePosition(true, null, false, List.of(duplicate)));
		// for everyone else it is a node like any other
		assertThat(QueuePosition.of(children, later)).isEqualTo(new QueuePosition(true, ours, false));
		assertThat(QueuePosition.of(children, reader)).isEqualTo(new QueuePosition(true, duplicate, true));
	}

	/** The position as the sorted queue defines it. */
	private static QueuePosition expected(List<LockNodeName> queue, int index) {
		LockNodeName blocker = LockNodeName.blocker(queue, index);
		if (blocker == null) {
			return new QueuePosition(true, null, false);
		}
		boolean reader = queue.get(index).mode() == LockMode.READ;
		long blockers = queue.subList(0, index).stream().filter((node) -> !reader || node.mode().excludesReaders())
			.count();
		return new QueuePosition(true, blocker.name(), blockers == 1);
	}

	/** Lock nodes of random modes and distinct sequences, with other children, shuffled. */
	private static List<String> randomListing(Random random, int size) {
		List<String> children = new ArrayList<>();
		List<Integer> sequences = new ArrayList<>();
		for (int i = 0; i < size * 3; i++) {
			sequences.add(i);
		}
		Collections.shuffle(sequences, random);
		String[] markers = { "lock-", "__READ__", "__WRIT__" };
		for (int i = 0; i < size; i++) {
			children.add(name(markers[random.nextInt(markers.length)], sequences.get(i)));
		}
		if (random.nextBoolean()) {
			children.add("leases");
			children.add("0000000001");
		}
		Collections.shuffle(children, random);
		return children;
	}

	private static String name(String marker, int sequence) {
		return "_c_" + UUID.nameUUIDFromBytes(Integer.toString(sequence).getBytes()) + "-" + marker
				+ String.format("%010d", sequence);
	}

}
