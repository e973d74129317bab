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

/**
 * Scenario 5: read-mostly, 90% READ / 10% WRITE on one lock path with 16 clients, zklock's
 * read/write locks against Curator's {@code InterProcessReadWriteLock} (Spring Integration has
 * no read/write lock).
 */
public final class ReadMostlyScenario implements Scenario {

	private static final int CLIENTS = 16;

	private static final double WRITE_SHARE = 0.1;

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.CURATOR);

	@Override
	public int number() {
		return 5;
	}

	@Override
	public String title() {
		return "Read-mostly: 90% READ / 10% WRITE on one path, " + CLIENTS + " clients × 1 thread";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		ContendedLoad load = new ContendedLoad(context.server(), "/bench/read-mostly");
		Map<Library, LoadOutcome> outcomes = LoadPasses.run(load, RunOrder.rotated(LIBRARIES, 1),
				new LoadSpec(CLIENTS, 1, "catalog", WRITE_SHARE,
					context.scale().loadWarmup(), context.scale().loadMeasure(), false),
				context.scale().loadPasses(), "90/10");
		Comparison table = new Comparison("5. " + title(), Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		table.row(Metric.throughput("operations/s"), LoadTables.row(outcomes, LoadOutcome::perSecond));
		table.row(Metric.fact("share of writes (%)", 1),
				LoadTables.row(outcomes, (outcome) -> 100.0 * outcome.writes() / outcome.operations()));
		table.row(Metric.cost("ZooKeeper requests/operation (server count)", 2),
				LoadTables.row(outcomes, LoadOutcome::requestsPerOperation));
		table.row(Metric.cost("watch events/release (server count)", 3),
				LoadTables.row(outcomes, LoadOutcome::watchEventsPerRelease));
		table.note("Curator here is InterProcessReadWriteLock (readLock()/writeLock()) used directly; Spring "
				+ "Integration's ZookeeperLockRegistry has no read/write lock, so it is not in this table.");
		context.results().add(table);
	}

}
