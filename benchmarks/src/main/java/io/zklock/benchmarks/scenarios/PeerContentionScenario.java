package io.zklock.benchmarks.scenarios;

import java.util.List;
import java.util.Map;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.ContendedLoad;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.load.LoadOutcome;
import io.zklock.benchmarks.load.LoadSpec;
import io.zklock.benchmarks.peers.Peer;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.benchmarks.report.Target;

/**
 * Scenarios 10 and 11: one hot lock against the peers, 16 clients × 1 thread (every release
 * hands the lock to another process) and 1 client × 16 threads (every handoff stays in one
 * process; zklock with local handoff off, its FIFO default, and on).
 */
public final class PeerContentionScenario implements Scenario {

	private final int number;

	private final int clients;

	private final int threads;

	private PeerContentionScenario(int number, int clients, int threads) {
		this.number = number;
		this.clients = clients;
		this.threads = threads;
	}

	/**
	 * Scenario 10: 16 processes × 1 thread.
	 * @return the scenario
	 */
	public static PeerContentionScenario processes() {
		return new PeerContentionScenario(10, 16, 1);
	}

	/**
	 * Scenario 11: 1 process × 16 threads.
	 * @return the scenario
	 */
	public static PeerContentionScenario threads() {
		return new PeerContentionScenario(11, 1, 16);
	}

	@Override
	public int number() {
		return this.number;
	}

	@Override
	public String title() {
		return "One hot lock against the peers, " + this.clients + ((this.clients == 1) ? " client × " : " clients × ")
				+ this.threads + ((this.threads == 1) ? " thread" : " threads");
	}

	private boolean sameProcess() {
		return this.clients == 1;
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		if (!PeerLineup.runs(context, this)) {
			return;
		}
		List<Library> libraries = sameProcess()
				? List.of(Library.ZKLOCK, Library.ZKLOCK_LOCAL_HANDOFF, Library.CURATOR)
				: List.of(Library.ZKLOCK, Library.CURATOR);
		List<Contender> contenders = PeerLineup.contenders(context, "/bench/peers-" + this.number, libraries);
		Map<Contender, LoadOutcome> outcomes = LoadPasses.contenders(new ContendedLoad(null, null, false),
				RunOrder.rotated(contenders, this.number),
				new LoadSpec(this.clients, this.threads, "hot", 0, context.scale().loadWarmup(),
						context.scale().loadMeasure(), false),
				context.scale().loadPasses(), this.clients + "×" + this.threads);
		Comparison table = new Comparison(this.number + ". " + title(), Library.ZKLOCK.displayName(),
				PeerLineup.peerColumns(contenders));
		addRows(table, outcomes);
		table.note("Every client is its own session or connection, in the driver JVM. Acquire: from the call until it "
				+ "returned holding the lock (the wait in the queue included). Watch events: ZooKeeper's count of "
				+ "watchers triggered; the peers wake waiters their own way (Redisson: a pub/sub message to every "
				+ "subscribed client per release; etcd: a watch on the key before the waiter's; Hazelcast: the Raft "
				+ "group's wait queue). " + (sameProcess() ? "zklock, local handoff: a held node is handed to the "
						+ "client's next waiting thread with one write (at most 32 handoffs or 50 ms per chain). " : "")
				+ PeerLineup.serversNote(context));
		context.results().add(table);
		targets(context, outcomes);
	}

	/**
	 * The rows of a contention table against the peers.
	 * @param table the table
	 * @param outcomes the outcomes per contender
	 */
	static void addRows(Comparison table, Map<Contender, LoadOutcome> outcomes) {
		table.row(Metric.throughput("handoffs/s"), LoadTables.contenderRow(outcomes, LoadOutcome::perSecond));
		table.row(Metric.cost("requests or commands/handoff (server count)", 2),
				LoadTables.contenderRow(outcomes, LoadOutcome::requestsPerOperation));
		table.row(Metric.cost("writes committed/handoff (server count)", 2),
				LoadTables.contenderRow(outcomes, LoadOutcome::commitsPerOperation));
		table.row(Metric.cost("acquire p50, ms", 2),
				LoadTables.contenderRow(outcomes, (outcome) -> outcome.acquireMicros(50) / 1e3));
		table.row(Metric.cost("acquire p99, ms", 2),
				LoadTables.contenderRow(outcomes, (outcome) -> outcome.acquireMicros(99) / 1e3));
		table.row(Metric.cost("release start → next grant p50 (µs)", 0),
				LoadTables.contenderRow(outcomes, (outcome) -> outcome.handoffGapMicros(50)));
		table.row(Metric.cost("release start → next grant p99 (µs)", 0),
				LoadTables.contenderRow(outcomes, (outcome) -> outcome.handoffGapMicros(99)));
		table.row(Metric.cost("watch events/release (ZooKeeper's count)", 3),
				LoadTables.contenderRow(outcomes, LoadOutcome::watchEventsPerRelease));
		table.row(Metric.cost("server CPU µs/handoff", 0),
				LoadTables.contenderRow(outcomes, LoadOutcome::serverCpuMicrosPerOperation));
	}

	private void targets(ScenarioContext context, Map<Contender, LoadOutcome> outcomes) {
		LoadOutcome rlock = find(outcomes, Peer.REDISSON_RLOCK.displayName());
		if (rlock == null) {
			return;
		}
		String figure = this.number + ". handoffs/s, " + this.clients + " × " + this.threads + " ("
				+ context.kind().optionValue() + ")";
		LoadOutcome zklock = find(outcomes, Library.ZKLOCK.displayName());
		if (sameProcess()) {
			LoadOutcome chained = find(outcomes, Library.ZKLOCK_LOCAL_HANDOFF.displayName());
			context.results().target(Target.ratioAtLeast(figure + ", local handoff", chained.perSecond(),
					Peer.REDISSON_RLOCK.displayName(), rlock.perSecond(), 0, 2.0));
			context.results().target(Target.reported(figure + ", FIFO default", zklock.perSecond(),
					Peer.REDISSON_RLOCK.displayName(), rlock.perSecond(), 0));
		}
		else {
			context.results().target(Target.ratioAtLeast(figure, zklock.perSecond(), Peer.REDISSON_RLOCK.displayName(),
					rlock.perSecond(), 0, 2.0));
		}
	}

	private static LoadOutcome find(Map<Contender, LoadOutcome> outcomes, String name) {
		for (Map.Entry<Contender, LoadOutcome> entry : outcomes.entrySet()) {
			if (entry.getKey().displayName().equals(name)) {
				return entry.getValue();
			}
		}
		return null;
	}

}
