package io.zklock.benchmarks.scenarios;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.ContendedLoad;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.load.LoadOutcome;
import io.zklock.benchmarks.load.LoadSpec;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;

/**
 * Scenario 12: many keys against the peers: 4 clients × 4 threads, each cycle on one of 1, 100 or
 * 10,000 keys at random. With one key the 16 threads queue on it; with 10,000 they rarely meet,
 * and the figure is the lock cycles per second the server takes across all keys. On ZooKeeper
 * the same clients and threads also write with no lock at all, for the ceiling a cycle of two
 * writes is held against.
 */
public final class PeerManyKeysScenario implements Scenario {

	private static final int CLIENTS = 4;

	private static final int THREADS = 4;

	@Override
	public int number() {
		return 12;
	}

	@Override
	public String title() {
		return "Many keys against the peers, " + CLIENTS + " clients × " + THREADS + " threads";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		if (!PeerLineup.runs(context, this)) {
			return;
		}
		List<Contender> contenders = PeerLineup.contenders(context, "/bench/peers-keys",
				List.of(Library.ZKLOCK, Library.CURATOR));
		Comparison table = new Comparison("12. " + title(), Library.ZKLOCK.displayName(),
				PeerLineup.peerColumns(contenders));
		Map<Integer, Map<Contender, LoadOutcome>> byKeys = new LinkedHashMap<>();
		int point = 0;
		for (int keys : context.scale().peerKeys()) {
			byKeys.put(keys, LoadPasses.contenders(new ContendedLoad(null, null, false),
					RunOrder.rotated(contenders, point++),
					new LoadSpec(CLIENTS, THREADS, "keys-" + keys, 0, context.scale().loadWarmup(),
							context.scale().loadMeasure(), false, keys),
					context.scale().loadPasses(), keys + " keys"));
		}
		byKeys.forEach((keys, outcomes) -> table.row(Metric.throughput(label(keys) + ": lock cycles/s, all keys"),
				LoadTables.contenderRow(outcomes, LoadOutcome::perSecond)));
		byKeys.forEach((keys, outcomes) -> table.row(Metric.cost(label(keys) + ": requests or commands/cycle", 2),
				LoadTables.contenderRow(outcomes, LoadOutcome::requestsPerOperation)));
		byKeys.forEach((keys, outcomes) -> table.row(Metric.cost(label(keys) + ": writes committed/cycle", 2),
				LoadTables.contenderRow(outcomes, LoadOutcome::commitsPerOperation)));
		byKeys.forEach((keys, outcomes) -> table.row(Metric.cost(label(keys) + ": acquire p50, ms", 2),
				LoadTables.contenderRow(outcomes, (outcome) -> outcome.acquireMicros(50) / 1e3)));
		byKeys.forEach((keys, outcomes) -> table.row(Metric.cost(label(keys) + ": acquire p99, ms", 2),
				LoadTables.contenderRow(outcomes, (outcome) -> outcome.acquireMicros(99) / 1e3)));
		double ceiling = WriteCeiling.writesPerSecond(context.server(), CLIENTS, THREADS, context.scale().loadWarmup(),
				context.scale().loadMeasure());
		System.out.printf(Locale.ROOT, "  ZooKeeper write ceiling (%d × %d setData): %,.0f writes/s%n", CLIENTS, THREADS,
				ceiling);
		table.note(String.format(Locale.ROOT, "Each cycle locks one of the keys at random (a new key's first lock on "
				+ "ZooKeeper also creates its container parent, and on Redis RFencedLock's token key). The ZooKeeper "
				+ "server's write ceiling in this run, with no lock at all (the same %d sessions × %d threads, each "
				+ "`setData` on a node of its own in a loop): **%,.0f writes/s**; a lock cycle is two writes, so "
				+ "half of that, %,.0f cycles/s, is the ceiling of lock cycles across all keys. ",
				CLIENTS, THREADS, ceiling, ceiling / 2) + PeerLineup.serversNote(context));
		context.results().add(table);
	}

	private static String label(int keys) {
		return String.format(Locale.ROOT, "%,d %s", keys, (keys == 1) ? "key" : "keys");
	}

}
