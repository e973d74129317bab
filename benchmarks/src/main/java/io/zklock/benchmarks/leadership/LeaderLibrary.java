package io.zklock.benchmarks.leadership;

import java.util.Arrays;

/**
 * The leader elections scenario 15 compares, each used as its documentation advises, with the
 * same check before every write and the same fenced store.
 */
public enum LeaderLibrary {

	/**
	 * Curator's {@code LeaderLatch}: the work stops on {@code SUSPENDED} and {@code LOST} (a
	 * connection-state listener, as the recipe's docs advise) until {@code RECONNECTED}, and checks
	 * {@code hasLeadership()} before every write. The latch has no token: the store sees the
	 * {@code czxid} of the latch's node, read when {@code isLeader()} is called.
	 */
	CURATOR_LEADER_LATCH("latch", "Curator LeaderLatch"),

	/**
	 * Spring Integration's {@code LockRegistryLeaderInitiator} (heartbeat 500 ms) over zklock's
	 * {@code ZkLockRegistry}: the work checks {@code Context.isLeader()} before every write, with the
	 * hold's fencing token read in {@code onGranted} ({@code ZkLockRegistry.fencingToken(role)}).
	 */
	SPRING_INTEGRATION("initiator", "Spring Integration LeaderInitiator over ZkLockRegistry"),

	/**
	 * zklock's {@code LeaderElection}: the work checks {@code Term.isActive()} before every write,
	 * with the term's token.
	 */
	ZKLOCK("zklock", "zklock LeaderElection");

	private final String id;

	private final String displayName;

	LeaderLibrary(String id, String displayName) {
		this.id = id;
		this.displayName = displayName;
	}

	/**
	 * The id on a leader process's command line.
	 * @return such as {@code "latch"}
	 */
	public String id() {
		return this.id;
	}

	/**
	 * The name in the tables.
	 * @return such as {@code "Curator LeaderLatch"}
	 */
	public String displayName() {
		return this.displayName;
	}

	/**
	 * The library with an id.
	 * @param id such as {@code "latch"}
	 * @return the library
	 * @throws IllegalArgumentException if no library has that id
	 */
	public static LeaderLibrary ofId(String id) {
		return Arrays.stream(values())
			.filter((library) -> library.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No leader library '" + id + "'; use latch, initiator or zklock"));
	}

}
