package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.benchmarks.server.ZooKeeperServer;
import io.zklock.lock.LockMode;

/**
 * Scenario 6: many keys. One thread locks and releases N distinct lock paths
 * ({@code orders/0} … {@code orders/N-1}) once each; then the server's znode count is followed
 * until ZooKeeper's container reaper (every 250 ms on this scenario's server) has brought it
 * back to its baseline.
 */
public final class ManyKeysScenario implements Scenario {

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.CURATOR,
			Library.SPRING_INTEGRATION);

	@Override
	public int number() {
		return 6;
	}

	@Override
	public String title() {
		return "Many keys: distinct lock paths, each locked once (1 client, 1 thread)";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		// a server of its own, whose reaper runs every 250 ms: on the shared server it runs
		// every 60 s (ZooKeeper's default), which the other scenarios keep
		try (ZooKeeperServer server = context.kind().start(true)) {
			run(context, server);
		}
	}

	private void run(ScenarioContext context, ZooKeeperServer server) throws Exception {
		int keys = context.scale().manyKeys();
		ZnodeCount znodes = new ZnodeCount(server.counters());
		// the server is fresh: warm its JIT (and the paths of every library that create parents)
		// before the first library is measured on it
		for (Library library : LIBRARIES) {
			try (ZkClient session = ZkClient.connect(server.connectString());
					LockClient locks = library.open(session, "/bench/many-keys-warm-up")) {
				for (int i = 0; i < Math.max(50, keys / 10); i++) {
					locks.lock("orders/" + i, LockMode.EXCLUSIVE).unlock();
				}
			}
		}
		// the keys are split over passes, each in the reverse order of the one before, so that the
		// server warming up further (or the machine slowing down) does not favour the last library
		int passes = context.scale().loadPasses();
		int perPass = keys / passes;
		Map<Library, Outcome> outcomes = new LinkedHashMap<>();
		LIBRARIES.forEach((library) -> outcomes.put(library, null));
		List<Library> order = new ArrayList<>(LIBRARIES);
		for (int pass = 0; pass < passes; pass++) {
			for (Library library : order) {
				Outcome outcome = lockOnce(context, server, znodes, library, pass * perPass, perPass);
				outcomes.merge(library, outcome, Outcome::plus);
			}
			Collections.reverse(order);
		}
		for (Map.Entry<Library, Outcome> entry : outcomes.entrySet()) {
			Outcome outcome = entry.getValue();
			System.out.printf(Locale.ROOT,
					"  %-20s %,d keys in %.2f s, %.2f requests/lock, %d znodes left after reaping (%s)%n",
					entry.getKey().displayName(), outcome.keys(), outcome.seconds(), outcome.requestsPerLock(),
					outcome.leftAfterReaping(), (outcome.reapSeconds() < 0) ? "not back within "
							+ context.scale().reapWait().toSeconds() + " s"
							: String.format(Locale.ROOT, "baseline after %.1f s", outcome.reapSeconds()));
			context.results().check(String.format(Locale.ROOT,
					"Scenario 6: %s's znodes returned to the baseline within %d s of its %,d locks (%d left)",
					entry.getKey().displayName(), context.scale().reapWait().toSeconds(), outcome.keys(),
					outcome.leftAfterReaping()), outcome.leftAfterReaping() <= 0);
		}
		int total = perPass * passes;
		Comparison table = new Comparison(String.format(Locale.ROOT, "6. Many keys: %,d distinct lock paths, each "
				+ "locked once (1 client, 1 thread)", total), Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		table.row(Metric.cost("total time (s)", 2), values(outcomes, Outcome::seconds));
		table.row(Metric.throughput("locks/s"), values(outcomes, (outcome) -> outcome.keys() / outcome.seconds()));
		table.row(Metric.cost("ZooKeeper requests/lock (server count)", 2), values(outcomes, Outcome::requestsPerLock));
		table.row(Metric.fact("znodes above baseline right after the last lock (the reaper runs meanwhile)", 0),
				values(outcomes, (o) -> (double) o.leftAtOnce()));
		table.row(Metric.cost("znodes above baseline once containers are reaped", 0),
				values(outcomes, (o) -> (double) o.leftAfterReaping()));
		table.row(Metric.fact("seconds from the last lock until back at baseline", 1),
				values(outcomes, (o) -> (o.reapSeconds() < 0) ? Double.NaN : o.reapSeconds()));
		table.note(String.format(Locale.ROOT, "Lock paths orders/0 … orders/%d under one root per library; every parent "
				+ "is a CONTAINER node. The keys are locked in %d pass(es) of %,d, each pass in the reverse library "
				+ "order of the one before, after a warm-up pass of every library on other keys. This scenario runs "
				+ "on a fresh server of the same kind whose container reaper runs every 250 ms without a rate limit "
				+ "(ZooKeeper's defaults, kept by the other scenarios: every 60 s, at most 10,000 deletions a minute). "
				+ "Each pass of each library starts from a settled baseline (the server's zk_znode_count once the "
				+ "previous containers were reaped); the znode figures are the worst pass.", total - 1, passes,
				perPass));
		context.results().add(table);
	}

	private static Outcome lockOnce(ScenarioContext context, ZooKeeperServer server, ZnodeCount znodes,
			Library library, int first, int count) throws Exception {
		ServerCounters counters = server.counters();
		long baseline = znodes.settle(Duration.ofMillis(750), Duration.ofSeconds(30));
		long elapsed;
		ServerCounters.Mntr before;
		ServerCounters.Mntr after;
		try (ZkClient session = ZkClient.connect(server.connectString());
				LockClient locks = library.open(session, "/bench/many-keys")) {
			before = counters.mntr();
			long start = System.nanoTime();
			for (int i = first; i < first + count; i++) {
				locks.lock("orders/" + i, LockMode.EXCLUSIVE).unlock();
			}
			elapsed = System.nanoTime() - start;
			after = counters.mntr();
		}
		long leftAtOnce = after.get(ServerCounters.Mntr.ZNODE_COUNT) - baseline;
		double reapSeconds = znodes.awaitAtMost(baseline, context.scale().reapWait());
		long leftAfterReaping = znodes.now() - baseline;
		return new Outcome(count, elapsed / 1e9, after.packetsSince(before), leftAtOnce, leftAfterReaping,
				reapSeconds);
	}

	private static Map<String, Double> values(Map<Library, Outcome> outcomes,
			java.util.function.ToDoubleFunction<Outcome> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		outcomes.forEach((library, outcome) -> values.put(library.displayName(), figure.applyAsDouble(outcome)));
		return values;
	}

	private record Outcome(int keys, double seconds, long requests, long leftAtOnce, long leftAfterReaping,
			double reapSeconds) {

		double requestsPerLock() {
			return (double) this.requests / this.keys;
		}

		/** Two passes as one: sums, and the worst of the znode figures. */
		Outcome plus(Outcome other) {
			double reap = (this.reapSeconds < 0 || other.reapSeconds < 0) ? -1
					: Math.max(this.reapSeconds, other.reapSeconds);
			return new Outcome(this.keys + other.keys, this.seconds + other.seconds, this.requests + other.requests,
					Math.max(this.leftAtOnce, other.leftAtOnce), Math.max(this.leftAfterReaping, other.leftAfterReaping),
					reap);
		}

	}

}
