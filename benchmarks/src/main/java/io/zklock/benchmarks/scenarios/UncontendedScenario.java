package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.jmh.SampledLatency;
import io.zklock.benchmarks.jmh.UncontendedLockBenchmark;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.benchmarks.report.Target;
import io.zklock.benchmarks.scenarios.InterleavedRun.Figures;

/**
 * Scenario 1: uncontended acquire + release of one exclusive lock, with an unbounded and with
 * a bounded wait. Latencies from JMH ({@link UncontendedLockBenchmark}); throughput and
 * requests per cycle (from the server's counters) from an {@link InterleavedRun} on the driver.
 */
public final class UncontendedScenario implements Scenario {

	/** The protocol's floor: create, getChildren, delete. */
	static final int PROTOCOL_FLOOR = 3;

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.CURATOR,
			Library.SPRING_INTEGRATION);

	@Override
	public int number() {
		return 1;
	}

	@Override
	public String title() {
		return "Uncontended acquire + release of one exclusive lock (1 client, 1 thread)";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		List<SampledLatency> latencies = SampledLatency
			.of(context.jmh().run(UncontendedLockBenchmark.class, context.jmhConnectString()));
		List<AutoCloseable> resources = new ArrayList<>();
		Map<String, Figures> interleaved;
		try {
			Map<String, InterleavedRun.TimedCall> variants = new LinkedHashMap<>();
			for (String wait : List.of(UncontendedLockBenchmark.UNBOUNDED, UncontendedLockBenchmark.BOUNDED)) {
				Duration maxWait = maxWait(wait);
				for (Library library : LIBRARIES) {
					ZkClient session = ZkClient.connect(context.server().connectString());
					resources.add(session);
					LockClient locks = library.open(session, UncontendedLockBenchmark.ROOT + "-" + wait);
					resources.add(0, locks);
					variants.put(key(library, wait), () -> UncontendedLockBenchmark.cycle(locks, maxWait));
				}
			}
			interleaved = new InterleavedRun(context.server(), context.scale().interleavedRounds(),
					context.scale().interleavedSlice())
				.runTimed(variants);
		}
		finally {
			for (AutoCloseable resource : resources) {
				resource.close();
			}
		}
		context.results().add(table(context, latencies, interleaved, UncontendedLockBenchmark.UNBOUNDED,
				"1. " + title() + ", unbounded wait",
				"zklock `acquire(path, EXCLUSIVE)`, Curator `acquire()`, Spring Integration `lock()`."));
		context.results().add(table(context, latencies, interleaved, UncontendedLockBenchmark.BOUNDED,
				"1b. The same with a bounded wait of 10 s",
				"zklock `tryAcquire(path, EXCLUSIVE, 10 s)`, Curator `acquire(10, SECONDS)`, Spring Integration "
						+ "`tryLock(10, SECONDS)`."));
	}

	private Comparison table(ScenarioContext context, List<SampledLatency> latencies, Map<String, Figures> interleaved,
			String wait, String title, String calls) {
		Map<String, Double> perSecond = new LinkedHashMap<>();
		Map<String, Double> requests = new LinkedHashMap<>();
		for (Library library : LIBRARIES) {
			Figures figures = interleaved.get(key(library, wait));
			perSecond.put(library.displayName(), figures.perSecond());
			requests.put(library.displayName(), figures.requestsPerCall());
		}
		Comparison table = new Comparison(title, Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		table.row(Metric.throughput("cycles/s (1 thread, interleaved runs)"), perSecond);
		table.row(Metric.cost("mean µs/cycle (JMH)", 1), values(latencies, wait, SampledLatency::meanMicros));
		table.row(Metric.cost("p50 µs/cycle (JMH)", 1), values(latencies, wait, SampledLatency::p50Micros));
		table.row(Metric.cost("p99 µs/cycle (JMH)", 1), values(latencies, wait, SampledLatency::p99Micros));
		table.row(Metric.cost("acquire p50 µs, time to grant (interleaved runs)", 1),
				figures(interleaved, wait, Figures::timedP50Micros));
		table.row(Metric.cost("acquire p99 µs, time to grant (interleaved runs)", 1),
				figures(interleaved, wait, Figures::timedP99Micros));
		table.row(Metric.cost("ZooKeeper requests/cycle (server count)", 2), requests);
		table.note("Calls: " + calls + " Throughput and requests come from the interleaved runs on the driver ("
				+ context.scale().interleavedRounds() + " rounds × " + context.scale().interleavedSlice().toMillis()
				+ " ms per library and wait, order rotated every round, one session each); latencies from JMH (one "
				+ "fork per library). Protocol floor: " + PROTOCOL_FLOOR
				+ " requests per cycle (create, getChildren, delete). Acquire latency: from the call until it "
				+ "returned holding the lock, every counted cycle of the interleaved runs.");
		double zklock = requests.get(Library.ZKLOCK.displayName());
		String waitName = (maxWait(wait) == null) ? "unbounded wait" : "10 s wait";
		String zk = Library.ZKLOCK.displayName();
		String curator = Library.CURATOR.displayName();
		context.results().target(Target.ratioAtLeast("1. uncontended cycles/s, " + waitName, perSecond.get(zk),
				perSecond.get(curator), 0, 1.4));
		context.results().target(Target.atMost("1. uncontended requests/cycle, " + waitName, requests.get(zk),
				requests.get(curator), 2, PROTOCOL_FLOOR));
		Map<String, Double> acquireP50 = figures(interleaved, wait, Figures::timedP50Micros);
		context.results().target(Target.ratioAtMost("1. acquire latency p50 µs, " + waitName, acquireP50.get(zk),
				acquireP50.get(curator), 1, 0.7));
		context.results().check(String.format(Locale.ROOT,
				"Scenario 1 (%s wait): zklock's uncontended cycle costs %.2f ZooKeeper requests, floor %d",
				(maxWait(wait) == null) ? "unbounded" : "10 s", zklock, PROTOCOL_FLOOR), zklock <= PROTOCOL_FLOOR + 0.005);
		return table;
	}

	private static Map<String, Double> figures(Map<String, Figures> interleaved, String wait,
			Function<Figures, Double> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		for (Library library : LIBRARIES) {
			values.put(library.displayName(), figure.apply(interleaved.get(key(library, wait))));
		}
		return values;
	}

	private static Duration maxWait(String wait) {
		return UncontendedLockBenchmark.UNBOUNDED.equals(wait) ? null : Duration.ofSeconds(10);
	}

	private static String key(Library library, String wait) {
		return library.id() + "/" + wait;
	}

	private static Map<String, Double> values(List<SampledLatency> latencies, String wait,
			Function<SampledLatency, Double> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		for (Library library : LIBRARIES) {
			// the quick scale runs JMH with the unbounded wait only
			SampledLatency latency = latencies.stream()
				.filter((l) -> library.id().equals(l.library()) && wait.equals(l.maxWait()))
				.findFirst()
				.orElse(null);
			values.put(library.displayName(), (latency != null) ? figure.apply(latency) : Double.NaN);
		}
		return values;
	}

}
