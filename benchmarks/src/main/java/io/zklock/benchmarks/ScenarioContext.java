package io.zklock.benchmarks;

import io.zklock.benchmarks.jmh.JmhRunner;
import io.zklock.benchmarks.peers.PeerServers;
import io.zklock.benchmarks.server.ServerKind;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * What a scenario runs with.
 *
 * @param server the server of this pass (for an embedded pass, the driver's in-process server)
 * @param kind the kind of that server
 * @param scale how long and how big
 * @param jmh the JMH runner
 * @param results where the scenario puts its tables, curve points and checks
 * @param peers the peers' servers of this section, started by the first scenario that needs them
 */
public record ScenarioContext(ZooKeeperServer server, ServerKind kind, Scale scale, JmhRunner jmh,
		ServerResults results, PeerServers peers) {

	/**
	 * The connect string JMH forks get: the server's for a standalone server (an ensemble's
	 * first member), empty for an embedded pass (each fork then starts its own in-process
	 * server).
	 * @return the connect string parameter
	 */
	public String jmhConnectString() {
		return (this.kind == ServerKind.EMBEDDED) ? "" : this.server.connectString(0);
	}

}
