package io.zklock.benchmarks.server;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * Reads a server's own counters with the four-letter words ({@code mntr}, {@code ruok}).
 * The server counts each four-letter word as one received packet; {@link Mntr#packetsSince}
 * takes that one out.
 */
public final class ServerCounters {

	private static final int TIMEOUT_MS = 5000;

	private final String host;

	private final int port;

	/**
	 * Creates a reader for one server.
	 * @param host the server's host, a loopback address
	 * @param port the server's client port
	 */
	public ServerCounters(String host, int port) {
		this.host = host;
		this.port = port;
	}

	/**
	 * Whether the server serves: it answers {@code ruok} with {@code imok} (its port is open)
	 * and {@code mntr} with its counters (it serves requests; a server still loading its
	 * database answers {@code ruok} but not {@code mntr}).
	 * @return {@code true} once the server serves
	 */
	public boolean isServing() {
		try {
			return "imok".equals(send("ruok").trim()) && send("mntr").contains(Mntr.PACKETS_RECEIVED);
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Takes a snapshot of every {@code mntr} value.
	 * @return the snapshot
	 * @throws IOException if the server does not answer
	 */
	public Mntr mntr() throws IOException {
		String reply = send("mntr");
		Map<String, String> values = new LinkedHashMap<>();
		for (String line : reply.split("\n")) {
			int tab = line.indexOf('\t');
			if (tab > 0) {
				values.put(line.substring(0, tab).trim(), line.substring(tab + 1).trim());
			}
		}
		if (!values.containsKey(Mntr.PACKETS_RECEIVED)) {
			throw new IOException("The ZooKeeper server on " + this.host + ":" + this.port
					+ " answered 'mntr' without " + Mntr.PACKETS_RECEIVED + " (is 4lw.commands.whitelist set?): "
					+ reply);
		}
		return new Mntr(values);
	}

	private String send(String word) throws IOException {
		try {
			return FourLetterWordMain.send4LetterWord(this.host, this.port, word, false, TIMEOUT_MS);
		}
		catch (org.apache.zookeeper.common.X509Exception.SSLContextException ex) {
			throw new IOException(ex);
		}
	}

	/**
	 * One {@code mntr} reply.
	 * @param values the reply's key/value lines
	 */
	public record Mntr(Map<String, String> values) {

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
			return get(PACKETS_RECEIVED) - before.get(PACKETS_RECEIVED) - 1;
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
