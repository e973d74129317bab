package io.zklock.benchmarks.scenarios;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.Scale;
import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.ContendedLoad;
import io.zklock.benchmarks.load.LoadOutcome;
import io.zklock.benchmarks.load.LoadSpec;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.benchmarks.report.Target;

/**
 * Scenario 3: one hot lock, N clients with one thread each (1 to 32, the curve of the chart;
 * 16 is the table), then 100 waiters for the herd check: handoffs per second, requests per
 * handoff and watch events per release, all from the server's counters.
 */
public final class HotLockScenario implements Scenario {

	static final String ROOT = "/bench/hot";

	private static final int TABLE_CLIENTS = 16;

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.CURATOR,
			Library.SPRING_INTEGRATION);

	@Override
	public int number() {
		return 3;
	}

	@Override
	public String title() {
		return "One hot lock, N clients with one thread each";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		Scale scale = context.scale();
		ContendedLoad load = new ContendedLoad(context.server(), ROOT);
		List<Integer> clientCounts = new java.util.ArrayList<>(scale.curveClients());
		if (!clientCounts.contains(TABLE_CLIENTS)) {
			clientCounts.add(TABLE_CLIENTS);
		}
		Map<Integer, Map<Library, LoadOutcome>> curve = new LinkedHashMap<>();
		int point = 0;
		for (int clients : clientCounts) {
			Map<Library, LoadOutcome> outcomes = LoadPasses.run(load, RunOrder.rotated(LIBRARIES, point++),
					new LoadSpec(clients, 1, "hot", 0, scale.loadWarmup(), scale.loadMeasure(), false),
					scale.loadPasses(), clients + " clients");
			outcomes.forEach((library, outcome) -> context.results().curvePoint(library, clients, outcome.perSecond()));
			curve.put(clients, outcomes);
		}
		Map<Library, LoadOutcome> table = curve.get(TABLE_CLIENTS);
		Comparison main = new Comparison("3. One hot lock, " + TABLE_CLIENTS + " clients × 1 thread",
				Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		addRows(main, table);
		context.results().add(main);
		LoadOutcome zklock = table.get(Library.ZKLOCK);
		LoadOutcome curator = table.get(Library.CURATOR);
		context.results().target(Target.ratioAtLeast("3. handoffs/s, " + TABLE_CLIENTS + " clients × 1 thread",
				zklock.perSecond(), curator.perSecond(), 0, 1.25));
		context.results().target(Target.atMost("3. requests/handoff, " + TABLE_CLIENTS + " clients × 1 thread",
				zklock.requestsPerOperation(), curator.requestsPerOperation(), 2, 4.0));

		Map<Library, LoadOutcome> herd = LoadPasses.run(load, RunOrder.rotated(LIBRARIES, point),
				new LoadSpec(scale.herdWaiters(), 1, "herd", 0, scale.loadWarmup(), scale.loadMeasure(), false),
				scale.loadPasses(), scale.herdWaiters() + " waiters");
		Comparison herdTable = new Comparison("3b. One hot lock, " + scale.herdWaiters() + " clients × 1 thread (herd check)",
				Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		addRows(herdTable, herd);
		context.results().add(herdTable);
		double zklockEvents = herd.get(Library.ZKLOCK).watchEventsPerRelease();
		context.results().target(Target.atMost("3b. watch events/release, " + scale.herdWaiters() + " waiters",
				zklockEvents, herd.get(Library.CURATOR).watchEventsPerRelease(), 3, 1.0));
		// one waiter per release: the release's data change and deletion reach the one persistent watch on
		// the released node, which the server counts in its data table (change, deletion) and child table
		// (deletion); no herd means this does not grow with the waiters
		context.results().check(String.format(Locale.ROOT,
				"Scenario 3: with %d waiters, one zklock release triggers %.3f watch events (herd-free: at most 3, "
						+ "the data change and the deletion of one persistent watch)",
				scale.herdWaiters(), zklockEvents), zklockEvents <= 3.0 + 1e-9);

		Comparison curveTable = new Comparison("3c. Handoffs/s by number of clients (the chart's data)",
				Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		curve.forEach((clients, outcomes) -> curveTable.row(Metric.throughput(clients + " clients, handoffs/s"),
				LoadTables.row(outcomes, LoadOutcome::perSecond)));
		context.results().add(curveTable);
	}

	private static void addRows(Comparison table, Map<Library, LoadOutcome> outcomes) {
		table.row(Metric.throughput("handoffs/s"), LoadTables.row(outcomes, LoadOutcome::perSecond));
		table.row(Metric.cost("ZooKeeper requests/handoff (server count)", 2),
				LoadTables.row(outcomes, LoadOutcome::requestsPerOperation));
		table.row(Metric.cost("watch events/release (server count)", 3),
				LoadTables.row(outcomes, LoadOutcome::watchEventsPerRelease));
		table.row(Metric.cost("release start → next grant p50 (µs)", 0),
				LoadTables.row(outcomes, (outcome) -> outcome.handoffGapMicros(50)));
		table.row(Metric.cost("release start → next grant p99 (µs)", 0),
				LoadTables.row(outcomes, (outcome) -> outcome.handoffGapMicros(99)));
	}

}
