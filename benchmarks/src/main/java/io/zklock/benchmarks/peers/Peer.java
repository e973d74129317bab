package io.zklock.benchmarks.peers;

import java.time.Duration;

/**
 * The locks a team would pick instead of a lock on ZooKeeper (Redis, etcd, Hazelcast), each on its own
 * server, which {@link PeerServers} starts.
 */
public enum Peer {

	/** Redisson's {@code RLock} on Redis: no fencing token. */
	REDISSON_RLOCK("Redisson RLock", "redisson-rlock"),

	/** Redisson's {@code RFencedLock} on Redis: a token from a counter in Redis. */
	REDISSON_FENCED("Redisson RFencedLock", "redisson-fenced-lock"),

	/** etcd's lock service through jetcd: the grant's revision as the token. */
	ETCD("etcd Lock", "etcd"),

	/** Hazelcast's CP subsystem {@code FencedLock} on three CP members: the fence as the token. */
	HAZELCAST("Hazelcast FencedLock", "hazelcast");

	private final String displayName;

	private final String id;

	Peer(String displayName, String id) {
		this.displayName = displayName;
		this.id = id;
	}

	/**
	 * The name in reports.
	 * @return such as {@code "etcd Lock"}
	 */
	public String displayName() {
		return this.displayName;
	}

	/**
	 * The id used on command lines and in lock names.
	 * @return such as {@code "redisson-rlock"}
	 */
	public String id() {
		return this.id;
	}

	/**
	 * Finds a peer by its id.
	 * @param id such as {@code "etcd"}
	 * @return the peer
	 */
	static Peer ofId(String id) {
		for (Peer peer : values()) {
			if (peer.id.equals(id)) {
				return peer;
			}
		}
		throw new IllegalArgumentException("Unknown peer '" + id + "'");
	}

	/**
	 * Opens one client of this peer: its own connection (and session), as a process has.
	 * @param address where the peer's server is, as {@link PeerServers#address(Peer)} gives it
	 * @param root the prefix of the lock names
	 * @param lease the lease, watchdog timeout or session TTL to use, or {@code null} for the
	 * library's default (Hazelcast's is the cluster's)
	 * @return the client
	 */
	GrantingClient open(String address, String root, Duration lease) {
		String prefix = root + "/" + this.id;
		return switch (this) {
			case REDISSON_RLOCK -> new RedissonClientLocks(address, prefix, false, lease);
			case REDISSON_FENCED -> new RedissonClientLocks(address, prefix, true, lease);
			case ETCD -> new EtcdLocks(address, prefix, lease);
			case HAZELCAST -> new HazelcastLocks(address, prefix);
		};
	}

}
