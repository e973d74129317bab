package io.zklock.benchmarks.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server settings both kinds of server use, so that the figures of the two are
 * comparable: four-letter words on, admin server off, no per-address connection limit (the
 * 100-waiter scenario opens more than the default 60 sessions from 127.0.0.1), and no fsync of
 * the transaction log ({@code zookeeper.forceSync=no}): on this kind of virtual disk an fsync
 * takes milliseconds with a long tail, the same for every library, and would drown the
 * differences between them. The container reaper keeps ZooKeeper's defaults (every 60 s, at
 * most 10,000 deletions a minute), except on the servers {@link #fastReaper()} asks for.
 */
final class ServerSettings {

	/** Interval of the fast container reaper, in milliseconds. */
	static final int FAST_REAPER_INTERVAL_MS = 250;

	private ServerSettings() {
	}

	/**
	 * The {@code zoo.cfg} properties, without the port and data directory.
	 * @return the properties in file order
	 */
	static Map<String, String> configProperties() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("tickTime", "2000");
		properties.put("maxClientCnxns", "0");
		properties.put("4lw.commands.whitelist", "*");
		properties.put("admin.enableServer", "false");
		return properties;
	}

	/**
	 * The JVM system properties the server reads (fsync and the container reaper read only these).
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * @return system property names and values
	 */
	static Map<String, String> systemProperties(boolean fastReaper) {
		return systemProperties(fastReaper, false);
	}

	/**
	 * The JVM system properties the server reads (fsync and the container reaper read only these).
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * @param forceSync whether the transaction log is fsynced before a write is acknowledged, as
	 * production runs it (the ensemble); {@code false} for the single servers (see the class)
	 * @return system property names and values
	 */
	static Map<String, String> systemProperties(boolean fastReaper, boolean forceSync) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("zookeeper.4lw.commands.whitelist", "*");
		properties.put("zookeeper.admin.enableServer", "false");
		properties.put("zookeeper.forceSync", forceSync ? "yes" : "no");
		if (fastReaper) {
			properties.putAll(fastReaper());
		}
		return properties;
	}

	/**
	 * The system properties of the fast container reaper: every 250 ms, no rate limit, so that
	 * the many-keys scenario sees the znode count return to its baseline within the run.
	 * @return system property names and values
	 */
	static Map<String, String> fastReaper() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("znode.container.checkIntervalMs", Integer.toString(FAST_REAPER_INTERVAL_MS));
		properties.put("znode.container.maxPerMinute", "100000000");
		return properties;
	}

}
