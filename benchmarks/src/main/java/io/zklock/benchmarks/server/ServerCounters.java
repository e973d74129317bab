package io.zklock.benchmarks.server;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * Reads the own counters of a server, or of every member of an ensemble, with the four-letter
 * words ({@code mntr}, {@code ruok}). The server counts each four-letter word as one received
 * packet; {@link Mntr#packetsSince} takes those out. For an ensemble, {@link #mntr()} adds up
 * the members' counters (the requests each member received, the watches each fired) and takes
 * the data tree's figures (znode and ephemeral counts) from one member.
 */
public final class ServerCounters implements RequestCounter {

	private static final int TIMEOUT_MS = 5000;

	/** The figures of the replicated data tree, the same on every member: never added up. */
	private static final java.util.Set<String> REPLICATED = java.util.Set.of(Mntr.ZNODE_COUNT, "zk_ephemerals_count",
			"zk_approximate_data_size");

	private final String host;

	private final int port;

	private final java.util.List<Integer> ports;

	private final java.util.List<Long> pids;

	/**
	 * Creates a reader for one server.
	 * @param host the server's host, a loopback address
	 * @param port the server's client port
	 */
	public ServerCounters(String host, int port) {
		this(host, java.util.List.of(port), java.util.List.of());
	}

	/**
	 * Creates a reader for the members of an ensemble (or one server).
	 * @param host the members' host, a loopback address
	 * @param ports the members' client ports
	 * @param pids the process ids of the members, whose CPU time readings include; empty for a
	 * server in this JVM
	 */
	public ServerCounters(String host, java.util.List<Integer> ports, java.util.List<Long> pids) {
		this.host = host;
		this.port = ports.get(0);
		this.ports = java.util.List.copyOf(ports);
		this.pids = java.util.List.copyOf(pids);
	}

	/**
	 * Whether the server serves: it answers {@code ruok} with {@code imok} (its port is open)
	 * and {@code mntr} with its counters (it serves requests; a server still loading its
	 * database answers {@code ruok} but not {@code mntr}).
	 * @return {@code true} once the server serves
	 */
	public boolean isServing() {
		try {
			for (int member : this.ports) {
				if (!"imok".equals(send(member, "ruok").trim()) || !send(member, "mntr").contains(Mntr.PACKETS_RECEIVED)) {
					return false;
				}
			}
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Takes a snapshot of every {@code mntr} value, added up over the members (see the class).
	 * @return the snapshot
	 * @throws IOException if a server does not answer
	 */
	public Mntr mntr() throws IOException {
		Map<String, String> values = new LinkedHashMap<>();
		for (int member : this.ports) {
			Map<String, String> own = mntrOf(member);
			own.forEach((key, value) -> values.merge(key, value, (a, b) -> add(key, a, b)));
		}
		values.put(Mntr.MEMBERS, Integer.toString(this.ports.size()));
		if (!this.pids.isEmpty()) {
			values.put(Mntr.CPU_NANOS, Long.toString(ProcessCpu.nanos(this.pids)));
		}
		return new Mntr(values);
	}

	/**
	 * The {@code mntr} values of one member.
	 * @param member the member's client port
	 * @return its values
	 * @throws IOException if it does not answer
	 */
	public Map<String, String> mntrOf(int member) throws IOException {
		String reply = send(member, "mntr");
		Map<String, String> values = new LinkedHashMap<>();
		for (String line : reply.split("\n")) {
			int tab = line.indexOf('\t');
			if (tab > 0) {
				values.put(line.substring(0, tab).trim(), line.substring(tab + 1).trim());
			}
		}
		if (!values.containsKey(Mntr.PACKETS_RECEIVED)) {
			throw new IOException("The ZooKeeper server on " + this.host + ":" + member
					+ " answered 'mntr' without " + Mntr.PACKETS_RECEIVED + " (is 4lw.commands.whitelist set?): "
					+ reply);
		}
		return values;
	}

	/**
	 * The watches registered on the members ({@code wchp}), but for the one every Curator client
	 * keeps on {@code /zookeeper/config} (its ensemble tracker).
	 * @return the watches, added up over the members
	 * @throws IOException if a member does not answer
	 */
	public long watchesBesideCurators() throws IOException {
		return watchesOn((watched) -> !watched.equals(ZooDefsConfig.PATH));
	}

	/**
	 * The watches registered on the members ({@code wchp}) on a path or any path below it.
	 * @param path a ZooKeeper path, such as a lock path whose children are lock nodes
	 * @return the watches, added up over the members
	 * @throws IOException if a member does not answer
	 */
	public long watchesUnder(String path) throws IOException {
		return watchesOn((watched) -> watched.equals(path) || watched.startsWith(path + "/"));
	}

	/**
	 * The watches on the paths {@code counted} accepts, added up over the members: {@code wchp}
	 * writes each watched path on a line of its own, then its watching sessions indented below it.
	 */
	private long watchesOn(Predicate<String> counted) throws IOException {
		long watches = 0;
		for (int member : this.ports) {
			boolean counting = false;
			for (String line : send(member, "wchp").split("\n")) {
				if (line.isBlank()) {
					continue;
				}
				if (!Character.isWhitespace(line.charAt(0))) {
					counting = counted.test(line.trim());
				}
				else if (counting) {
					watches++;
				}
			}
		}
		return watches;
	}

	/** Where ZooKeeper keeps its dynamic configuration, watched by every Curator client. */
	private static final class ZooDefsConfig {

		static final String PATH = org.apache.zookeeper.ZooDefs.CONFIG_NODE;

	}

	private static String add(String key, String a, String b) {
		try {
			double x = Double.parseDouble(a);
			double y = Double.parseDouble(b);
			double merged = REPLICATED.contains(key) ? Math.max(x, y) : x + y;
			return (merged == Math.rint(merged)) ? Long.toString((long) merged) : Double.toString(merged);
		}
		catch (NumberFormatException ex) {
			return a + "," + b;
		}
	}

	@Override
	public Mntr read() throws IOException {
		return mntr();
	}

	/**
	 * Sends a four-letter word to the first member and returns its reply.
	 * @param word such as {@code "srvr"}, or {@code "srst"} to reset the server's statistics
	 * (its latency counters and packet counts: a window's counts are then its own)
	 * @return the reply
	 * @throws IOException if the server does not answer
	 */
	public String send(String word) throws IOException {
		return send(this.ports.get(0), word);
	}

	private String send(int member, String word) throws IOException {
		try {
			return FourLetterWordMain.send4LetterWord(this.host, member, word, false, TIMEOUT_MS);
		}
		catch (org.apache.zookeeper.common.X509Exception.SSLContextException ex) {
			throw new IOException(ex);
		}
	}

	/**
	 * One {@code mntr} reply.
	 * @param values the reply's key/value lines
	 */
	public record Mntr(Map<String, String> values) implements RequestCounter.Reading {

		/** How many members answered (one {@code mntr} packet each): set by {@link ServerCounters}. */
		static final String MEMBERS = "bench_members";

		/** The members' CPU time in nanoseconds: set by {@link ServerCounters} for child processes. */
		static final String CPU_NANOS = "bench_cpu_nanos";

		/** Proposals the leader of an ensemble made: its write transactions. */
		static final String PROPOSALS = "zk_proposal_count";

		/** Write transactions a standalone server applied (its update-latency summary's count). */
		static final String UPDATES = "zk_cnt_updatelatency";

		/** Requests (packets) the server received from clients, connection requests and pings included. */
		public static final String PACKETS_RECEIVED = "zk_packets_received";

		/** Znodes in the data tree. */
		public static final String ZNODE_COUNT = "zk_znode_count";

		/** Watches registered on the server, all sessions. */
		public static final String WATCH_COUNT = "zk_watch_count";

		/**
		 * The summaries of watchers triggered, one per event type: each sums, over the events
		 * of its type, the watchers that event fired (data and child watches alike).
		 */
		public static final java.util.List<String> WATCHERS_TRIGGERED = java.util.List.of(
				"zk_sum_node_created_watch_count", "zk_sum_node_deleted_watch_count",
				"zk_sum_node_changed_watch_count", "zk_sum_node_children_watch_count");

		/** Open client connections. */
		public static final String CONNECTIONS = "zk_num_alive_connections";

		/**
		 * A numeric value.
		 * @param key the {@code mntr} key
		 * @return the value, or 0 if the server does not report it (a summary no event fed yet)
		 */
		public long get(String key) {
			String value = this.values.get(key);
			if (value == null || value.isEmpty()) {
				return 0;
			}
			return (long) Double.parseDouble(value);
		}

		/**
		 * Requests received since an earlier snapshot, not counting the {@code mntr} request
		 * that falls between any two snapshots (the server counts a four-letter word as one
		 * received packet).
		 * @param before the earlier snapshot
		 * @return the difference of {@value #PACKETS_RECEIVED}, less one
		 */
		public long packetsSince(Mntr before) {
			return get(PACKETS_RECEIVED) - before.get(PACKETS_RECEIVED) - Math.max(1, get(MEMBERS));
		}

		@Override
		public long requestsSince(RequestCounter.Reading before) {
			return packetsSince((Mntr) before);
		}

		@Override
		public long watchEventsSince(RequestCounter.Reading before) {
			return watchersTriggeredSince((Mntr) before);
		}

		/**
		 * Write transactions since an earlier snapshot: the proposals of an ensemble's leader,
		 * or the transactions a standalone server applied.
		 * @param before the earlier snapshot
		 * @return the writes committed
		 */
		@Override
		public long commitsSince(RequestCounter.Reading before) {
			Mntr earlier = (Mntr) before;
			long proposals = get(PROPOSALS) - earlier.get(PROPOSALS);
			return (proposals > 0) ? proposals : get(UPDATES) - earlier.get(UPDATES);
		}

		@Override
		public long serverCpuNanosSince(RequestCounter.Reading before) {
			Mntr earlier = (Mntr) before;
			if (!this.values.containsKey(CPU_NANOS) || get(CPU_NANOS) < 0 || earlier.get(CPU_NANOS) < 0) {
				return -1;
			}
			return get(CPU_NANOS) - earlier.get(CPU_NANOS);
		}

		/**
		 * Watch events the server sent since an earlier snapshot: watchers triggered by node
		 * creations, deletions, data changes and child-list changes.
		 * @param before the earlier snapshot
		 * @return the number of watchers triggered
		 */
		public long watchersTriggeredSince(Mntr before) {
			long triggered = 0;
			for (String key : WATCHERS_TRIGGERED) {
				triggered += get(key) - before.get(key);
			}
			return triggered;
		}

	}

}
