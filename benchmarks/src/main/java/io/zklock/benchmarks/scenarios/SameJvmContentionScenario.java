package io.zklock.benchmarks.scenarios;

import java.util.List;
import java.util.Map;

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
 * Scenario 4: one hot lock, 4 clients × 8 threads each, so that threads of one process
 * contend with each other as well as with other processes. Also samples how many lock nodes
 * the lock path has at its peak.
 */
public final class SameJvmContentionScenario implements Scenario {

	private static final int CLIENTS = 4;

	private static final int THREADS = 8;

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.ZKLOCK_LOCAL_HANDOFF,
			Library.CURATOR, Library.SPRING_INTEGRATION);

	@Override
	public int number() {
		return 4;
	}

	@Override
	public String title() {
		return "One hot lock, " + CLIENTS + " clients × " + THREADS + " threads (same-JVM contention)";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		// a fifth client with one thread acquires every 5 ms: the remote waiter behind the local-handoff chains
		ContendedLoad load = new ContendedLoad(context.server(), "/bench/same-jvm", true);
		Map<Library, LoadOutcome> outcomes = LoadPasses.run(load, RunOrder.rotated(LIBRARIES, 1),
				new LoadSpec(CLIENTS, THREADS, "hot", 0,
					context.scale().loadWarmup(), context.scale().loadMeasure(), true),
				context.scale().loadPasses(), CLIENTS + "×" + THREADS);
		Comparison table = new Comparison("4. " + title(), Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		table.row(Metric.throughput("handoffs/s"), LoadTables.row(outcomes, LoadOutcome::perSecond));
		table.row(Metric.cost("ZooKeeper requests/handoff (server count)", 2),
				LoadTables.row(outcomes, LoadOutcome::requestsPerOperation));
		table.row(Metric.cost("watch events/release (server count)", 3),
				LoadTables.row(outcomes, LoadOutcome::watchEventsPerRelease));
		table.row(Metric.cost("lock nodes per path at peak (sampled every 5 ms)", 0),
				LoadTables.row(outcomes, LoadOutcome::peakLockNodes));
		table.row(Metric.cost("remote waiter's wait p50, ms", 2),
				LoadTables.row(outcomes, (outcome) -> outcome.remoteWaitMillis(0.50)));
		table.row(Metric.cost("remote waiter's wait p99, ms", 2),
				LoadTables.row(outcomes, (outcome) -> outcome.remoteWaitMillis(0.99)));
		table.note("The node count is sampled with getChildren on a separate session; those requests are taken out "
				+ "of the request count. The remote waiter is a fifth client with one thread that acquires every "
				+ "5 ms during the window; its cycles count as handoffs and its requests are in the request count.");
		context.results().add(table);
		context.results().target(Target.ratioAtLeast("4. handoffs/s, " + CLIENTS + " clients × " + THREADS + " threads",
				outcomes.get(Library.ZKLOCK).perSecond(), outcomes.get(Library.CURATOR).perSecond(), 0, 3.0));
		LoadOutcome chained = outcomes.get(Library.ZKLOCK_LOCAL_HANDOFF);
		context.results().target(Target.ratioAtLeast("4. handoffs/s, " + CLIENTS + " clients × " + THREADS
				+ " threads, local handoff", chained.perSecond(), outcomes.get(Library.CURATOR).perSecond(), 0,
				15.0));
		context.results().target(Target.atMost("4. requests/handoff, local handoff",
				chained.requestsPerOperation(), outcomes.get(Library.CURATOR).requestsPerOperation(), 2, 1.2));
	}

}
