package io.zklock.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.List;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.load.DriverWarmUp;
import io.zklock.benchmarks.peers.Peer;
import io.zklock.benchmarks.server.ServerKind;

/**
 * The line-up of the scenarios against the peers (9 to 13): zklock and Curator on this section's
 * ZooKeeper server, then every peer whose server runs. They run on the standalone process and
 * on the ensemble; an in-process ZooKeeper is no deployment to hold a peer's server against.
 */
final class PeerLineup {

	private PeerLineup() {
	}

	/**
	 * Whether the scenario runs in this section; if not, records why.
	 * @param context the section
	 * @param scenario the scenario
	 * @return {@code true} on the process server and the ensemble
	 */
	static boolean runs(ScenarioContext context, Scenario scenario) {
		if (context.kind() == ServerKind.EMBEDDED) {
			context.results().skip("Scenario " + scenario.number() + " (" + scenario.title() + ")",
					"the peers are compared on the process server and the ensemble, not against an in-process server");
			return false;
		}
		return true;
	}

	/**
	 * The contenders: the ZooKeeper libraries, then the peers that run.
	 * @param context the section
	 * @param root the root of the ZooKeeper libraries' lock paths and of the peers' lock names
	 * @param libraries the ZooKeeper libraries, zklock first
	 * @return the contenders in column order
	 */
	static List<Contender> contenders(ScenarioContext context, String root, List<Library> libraries) throws Exception {
		List<Contender> contenders = new ArrayList<>();
		libraries.forEach((library) -> contenders.add(Contender.of(context.server(), library, root)));
		List<Contender> peers = new ArrayList<>();
		for (Peer peer : context.peers().start()) {
			peers.add(context.peers().contender(peer, root));
		}
		if (context.peers().firstUse()) {
			// the ZooKeeper libraries warmed up before the first scenario; the peers' JVMs and servers now
			System.out.printf(java.util.Locale.ROOT, "  warming up the peers: %d ms each%n",
					context.scale().driverWarmup().toMillis());
			DriverWarmUp.contenders(peers, context.scale().driverWarmup());
		}
		contenders.addAll(peers);
		return contenders;
	}

	/**
	 * The columns after zklock's.
	 * @param contenders the contenders, zklock first
	 * @return their names
	 */
	static List<String> peerColumns(List<Contender> contenders) {
		return contenders.subList(1, contenders.size()).stream().map(Contender::displayName).toList();
	}

	/**
	 * The note every peer table carries: how the peers' servers ran, and which could not.
	 * @param context the section
	 * @return the note
	 */
	static String serversNote(ScenarioContext context) {
		String note = "Peers' servers, started by the benchmark on 127.0.0.1: "
				+ String.join("; ", context.peers().descriptions()) + ". Each client is its own session or connection "
				+ "(a RedissonClient, a jetcd Client, a Hazelcast client instance), as a process of a service would have.";
		List<String> skipped = context.peers().skipped();
		return skipped.isEmpty() ? note : note + " Not run here: " + String.join("; ", skipped) + ".";
	}

}
