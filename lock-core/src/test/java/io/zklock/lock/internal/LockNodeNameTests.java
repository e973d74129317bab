package io.zklock.lock.internal;

import java.util.List;

import io.zklock.lock.LockMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parsing and ordering of lock-node names (Curator's naming), and which node a waiter waits
 * for. Pure logic, no server.
 */
class LockNodeNameTests {

	private static final String UUID_A = "_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-";

	private static final String UUID_B = "_c_00000000-0000-0000-0000-000000000000-";

	private static final String UUID_Z = "_c_ffffffff-ffff-ffff-ffff-ffffffffffff-";

	@Test
	void shouldParseTheModeAndSequenceOfCuratorNodeNames() {
		assertThat(LockNodeName.parse(UUID_A + "lock-0000000007"))
			.isEqualTo(new LockNodeName(UUID_A + "lock-0000000007", LockMode.EXCLUSIVE, "0000000007"));
		assertThat(LockNodeName.parse(UUID_A + "__READ__0000000012").mode()).isEqualTo(LockMode.READ);
		assertThat(LockNodeName.parse(UUID_A + "__WRIT__0000000013").mode()).isEqualTo(LockMode.WRITE);
		// unprotected names, as an older Curator or another client may create
		assertThat(LockNodeName.parse("lock-0000000001").mode()).isEqualTo(LockMode.EXCLUSIVE);
		assertThat(LockNodeName.parse("__READ__0000000002").sequence()).isEqualTo("0000000002");
	}

	@Test
	void shouldSkipChildrenThatAreNotLockNodes() {
		assertThat(LockNodeName.parse("leases")).isNull();
		assertThat(LockNodeName.parse("0000000001")).isNull();
		assertThat(LockNodeName.parse(UUID_A + "lease-0000000001")).isNull();
		assertThat(LockNodeName.parse("child")).isNull();
		assertThat(LockNodeName.sortedLockNodes(List.of("leases", "locks", UUID_A + "lock-0000000003")))
			.extracting(LockNodeName::name)
			.containsExactly(UUID_A + "lock-0000000003");
	}

	@Test
	void shouldOrderBySequenceNotByTheProtectionPrefix() {
		List<LockNodeName> queue = LockNodeName.sortedLockNodes(List.of(UUID_B + "__WRIT__0000000009",
				UUID_Z + "__READ__0000000001", UUID_A + "__READ__0000000005", UUID_B + "lock-0000000002"));
		assertThat(queue).extracting(LockNodeName::sequence)
			.containsExactly("0000000001", "0000000002", "0000000005", "0000000009");
		assertThat(queue.get(2).name()).isEqualTo(UUID_A + "__READ__0000000005");
	}

	@Test
	void shouldMakeAnExclusiveOrWriteWaiterWaitForItsImmediatePredecessor() {
		List<LockNodeName> queue = queue("R1", "R2", "W3", "E4", "R5", "W6");
		assertThat(LockNodeName.blocker(queue("E1"), 0)).isNull();
		assertThat(LockNodeName.blocker(queue, 2).name()).isEqualTo(name("R2"));
		assertThat(LockNodeName.blocker(queue, 3).name()).isEqualTo(name("W3"));
		assertThat(LockNodeName.blocker(queue, 5).name()).isEqualTo(name("R5"));
	}

	@Test
	void shouldMakeAReaderWaitOnlyForTheLastNodeBeforeItThatExcludesReaders() {
		List<LockNodeName> queue = queue("R1", "R2", "W3", "R4", "R5", "E6", "R7");
		assertThat(LockNodeName.blocker(queue, 0)).isNull();
		assertThat(LockNodeName.blocker(queue, 1)).as("behind readers only").isNull();
		assertThat(LockNodeName.blocker(queue, 3).name()).isEqualTo(name("W3"));
		assertThat(LockNodeName.blocker(queue, 4).name()).isEqualTo(name("W3"));
		assertThat(LockNodeName.blocker(queue, 6).name()).isEqualTo(name("E6"));
	}

	@Test
	void shouldDefineWhichHeldModeCoversARequestedOne() {
		assertThat(LockMode.WRITE.covers(LockMode.READ)).isTrue();
		assertThat(LockMode.WRITE.covers(LockMode.WRITE)).isTrue();
		assertThat(LockMode.EXCLUSIVE.covers(LockMode.READ)).isTrue();
		assertThat(LockMode.READ.covers(LockMode.READ)).isTrue();
		assertThat(LockMode.READ.covers(LockMode.WRITE)).isFalse();
		assertThat(LockMode.READ.covers(LockMode.EXCLUSIVE)).isFalse();
		assertThat(LockMode.READ.excludesReaders()).isFalse();
		assertThat(LockMode.WRITE.excludesReaders()).isTrue();
		assertThat(LockMode.EXCLUSIVE.excludesReaders()).isTrue();
		// Curator sorts read/write nodes after either marker: both must be as long
		assertThat(LockMode.READ.nodeMarker()).hasSameSizeAs(LockMode.WRITE.nodeMarker());
	}

	/** Nodes named by mode letter and sequence, such as "W3" for a WRITE node with sequence 3. */
	private static List<LockNodeName> queue(String... nodes) {
		List<String> names = java.util.Arrays.stream(nodes).map(LockNodeNameTests::name).toList();
		return LockNodeName.sortedLockNodes(names);
	}

	private static String name(String node) {
		String marker = switch (node.charAt(0)) {
			case 'R' -> LockMode.READ.nodeMarker();
			case 'W' -> LockMode.WRITE.nodeMarker();
			default -> LockMode.EXCLUSIVE.nodeMarker();
		};
		return UUID_A + marker + String.format("%010d", Integer.parseInt(node.substring(1)));
	}

}
