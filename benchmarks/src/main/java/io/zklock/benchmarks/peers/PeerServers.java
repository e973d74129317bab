package io.zklock.benchmarks.peers;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.server.RequestCounter;

/**
 * The peers' servers for one section of a run, started the first time a scenario needs them:
 * Redis and etcd from their Debian packages (a peer whose program is missing is skipped, with
 * one line naming the package; {@code benchmarks/run.sh} installs them when it runs as root),
 * and a Hazelcast cluster of three CP members in child JVMs.
 */
public final class PeerServers implements AutoCloseable {

	/**
	 * The lease of the pause test, the same for every library: a ZooKeeper session timeout,
	 * Redisson's watchdog timeout, an etcd lease's TTL, and the Hazelcast cluster's CP session
	 * TTL (a cluster-wide setting, so every Hazelcast scenario runs with it).
	 */
	public static final Duration LEASE = Duration.ofSeconds(5);

	private final boolean onDisk;

	private final List<String> skipped = new ArrayList<>();

	private final Map<Peer, String> addresses = new LinkedHashMap<>();

	private final Map<Peer, RequestCounter> counters = new LinkedHashMap<>();

	private final List<String> descriptions = new ArrayList<>();

	private final List<AutoCloseable> servers = new ArrayList<>();

	private boolean started;

	private boolean warm;

	/**
	 * Creates the (not yet started) servers of a section.
	 * @param onDisk whether etcd's data directory is on disk (fsync as production pays it),
	 * as for a ZooKeeper ensemble with fsync on; otherwise on tmpfs
	 */
	public PeerServers(boolean onDisk) {
		this.onDisk = onDisk;
	}

	/**
	 * Starts the servers unless they run already.
	 * @return the peers that can run, in report order
	 */
	public synchronized List<Peer> start() {
		if (!this.started) {
			this.started = true;
			startRedis();
			startEtcd();
			startHazelcast();
		}
		return List.copyOf(this.addresses.keySet());
	}

	private void startRedis() {
		if (!onPath(RedisServer.PACKAGE)) {
			skip("Redis (Redisson RLock, RFencedLock)", "the Debian package " + RedisServer.PACKAGE + " is not installed");
			return;
		}
		try {
			RedisServer redis = RedisServer.start();
			this.servers.add(redis);
			this.descriptions.add("Redis " + redis.version() + " (one server, no persistence)");
			for (Peer peer : List.of(Peer.REDISSON_RLOCK, Peer.REDISSON_FENCED)) {
				this.addresses.put(peer, redis.address());
				this.counters.put(peer, redis.counter());
			}
		}
		catch (Exception ex) {
			skip("Redis (Redisson RLock, RFencedLock)", "redis-server did not start: " + ex.getMessage());
		}
	}

	private void startEtcd() {
		if (!onPath(EtcdServer.PROGRAM)) {
			skip("etcd (etcd Lock)", "the Debian package " + EtcdServer.PACKAGE + " is not installed");
			return;
		}
		try {
			EtcdServer etcd = EtcdServer.start(this.onDisk);
			this.servers.add(etcd);
			this.descriptions.add(etcd.description());
			this.addresses.put(Peer.ETCD, etcd.endpoint());
			this.counters.put(Peer.ETCD, etcd.counter());
		}
		catch (Exception ex) {
			skip("etcd (etcd Lock)", "etcd did not start: " + ex.getMessage());
		}
	}

	private void startHazelcast() {
		try {
			HazelcastCluster hazelcast = HazelcastCluster.start(LEASE);
			this.servers.add(hazelcast);
			this.descriptions.add(hazelcast.description());
			this.addresses.put(Peer.HAZELCAST, hazelcast.addresses());
			this.counters.put(Peer.HAZELCAST, hazelcast.counter());
		}
		catch (Exception ex) {
			skip("Hazelcast (FencedLock)", "the cluster did not start: " + ex.getMessage());
		}
	}

	private void skip(String peer, String reason) {
		String line = peer + " skipped: " + reason;
		System.out.println("  " + line);
		this.skipped.add(line);
	}

	private static boolean onPath(String program) {
		for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			File file = new File(folder, program);
			if (!folder.isEmpty() && file.isFile() && file.canExecute()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether the peers still need their warm-up; {@code true} once only.
	 * @return {@code true} the first time it is asked
	 */
	public synchronized boolean firstUse() {
		boolean first = !this.warm;
		this.warm = true;
		return first;
	}

	/**
	 * The peers that could not run, each with why.
	 * @return one line per server
	 */
	public synchronized List<String> skipped() {
		return List.copyOf(this.skipped);
	}

	/**
	 * How the servers ran.
	 * @return one phrase per server
	 */
	public synchronized List<String> descriptions() {
		return List.copyOf(this.descriptions);
	}

	/**
	 * Where a peer's server is: its address, endpoint or member list.
	 * @param peer a started peer
	 * @return the address its clients are given
	 */
	public synchronized String address(Peer peer) {
		return this.addresses.get(peer);
	}

	/**
	 * A peer as a load's contender: each client its own connection, the library's defaults.
	 * @param peer a started peer
	 * @param root the prefix of the lock names
	 * @return the contender
	 */
	public Contender contender(Peer peer, String root) {
		String address = address(peer);
		RequestCounter counter;
		synchronized (this) {
			counter = this.counters.get(peer);
		}
		return new Contender() {

			@Override
			public String displayName() {
				return peer.displayName();
			}

			@Override
			public LockClient open(int index) {
				return peer.open(address, root, null);
			}

			@Override
			public RequestCounter counter() {
				return counter;
			}

		};
	}

	/**
	 * Opens a client with a given lease (the pause test's rival).
	 * @param peer a started peer
	 * @param root the prefix of the lock names
	 * @param lease the lease
	 * @return the client
	 */
	GrantingClient open(Peer peer, String root, Duration lease) {
		return peer.open(address(peer), root, lease);
	}

	@Override
	public synchronized void close() {
		for (AutoCloseable server : this.servers) {
			try {
				server.close();
			}
			catch (Exception ex) {
				System.out.println(String.format(Locale.ROOT, "  could not stop %s: %s", server, ex));
			}
		}
		this.servers.clear();
	}

}
