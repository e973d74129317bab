package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.context.ConfigurableApplicationContext;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.jmh.AnnotationApplication;
import io.zklock.benchmarks.jmh.AnnotationBenchmark;
import io.zklock.benchmarks.jmh.LockedOrders;
import io.zklock.benchmarks.jmh.Orders;
import io.zklock.benchmarks.jmh.SampledLatency;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockMode;

/**
 * Scenario 2: a {@code @DistributedLock} bean method (SpEL key) against a plain call and
 * against the same lock taken in code; the interceptor's own cost measured over an in-memory
 * lock. Latencies from JMH ({@link AnnotationBenchmark}); throughput and requests per call
 * (from the server's counters) from an {@link InterleavedRun} on the driver.
 */
public final class AnnotationScenario implements Scenario {

	private static final String ANNOTATED = "@DistributedLock call";

	private static final String PLAIN = "plain call (no lock)";

	private static final String PROGRAMMATIC = "executeLocked (same lock, no aspect)";

	private static final String IN_MEMORY = "@DistributedLock over an in-memory lock";

	@Override
	public int number() {
		return 2;
	}

	@Override
	public String title() {
		return "@DistributedLock on a bean method (key = \"#orderId\") against a plain call";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		List<SampledLatency> latencies = SampledLatency
			.of(context.jmh().run(AnnotationBenchmark.class, context.jmhConnectString()));
		SampledLatency annotated = SampledLatency.find(latencies, "annotatedCall", null, null);
		SampledLatency plain = SampledLatency.find(latencies, "plainCall", null, null);
		SampledLatency programmatic = SampledLatency.find(latencies, "programmaticCall", null, null);
		SampledLatency inMemory = SampledLatency.find(latencies, "annotatedCallInMemoryLock", null, null);
		Map<String, InterleavedRun.Figures> interleaved;
		try (ConfigurableApplicationContext app = AnnotationApplication.start(context.server().connectString())) {
			Orders locked = app.getBean(LockedOrders.class);
			Orders orders = app.getBean("plainOrders", Orders.class);
			ILockByCurator locks = app.getBean(ILockByCurator.class);
			Map<String, InterleavedRun.Call> variants = new LinkedHashMap<>();
			variants.put(ANNOTATED, () -> locked.ship(42));
			variants.put(PROGRAMMATIC, () -> locks.executeLocked("orders/42", LockMode.EXCLUSIVE,
					Duration.ofSeconds(10), (handle) -> orders.ship(42)));
			interleaved = new LinkedHashMap<>(new InterleavedRun(context.server(), context.scale().interleavedRounds(),
					context.scale().interleavedSlice())
				.run(variants));
			// the plain call's requests are counted on their own: a 30 ns call spinning between
			// the locked variants' slices would change what they measure
			interleaved.putAll(new InterleavedRun(context.server(), 1, context.scale().interleavedSlice())
				.run(Map.of(PLAIN, () -> orders.ship(42))));
		}
		Comparison table = new Comparison("2. " + title(), ANNOTATED, List.of(PLAIN, PROGRAMMATIC)).reference(PLAIN);
		Map<String, Double> perSecond = new LinkedHashMap<>();
		perSecond.put(ANNOTATED, interleaved.get(ANNOTATED).perSecond());
		perSecond.put(PROGRAMMATIC, interleaved.get(PROGRAMMATIC).perSecond());
		table.row(Metric.throughput("calls/s (1 thread, interleaved runs)"), perSecond);
		table.row(Metric.cost("mean µs/call (JMH)", 3),
				row(annotated.meanMicros(), plain.meanMicros(), programmatic.meanMicros()));
		table.row(Metric.cost("p50 µs/call (JMH)", 3), row(annotated.p50Micros(), plain.p50Micros(), programmatic.p50Micros()));
		table.row(Metric.cost("p99 µs/call (JMH)", 3), row(annotated.p99Micros(), plain.p99Micros(), programmatic.p99Micros()));
		table.row(Metric.cost("ZooKeeper requests/call (server count)", 2),
				row(interleaved.get(ANNOTATED).requestsPerCall(), interleaved.get(PLAIN).requestsPerCall(),
						interleaved.get(PROGRAMMATIC).requestsPerCall()));
		double aspectCost = inMemory.meanMicros() - plain.meanMicros();
		double interleavedDifference = 1e6 / interleaved.get(ANNOTATED).perSecond()
				- 1e6 / interleaved.get(PROGRAMMATIC).perSecond();
		table.note(String.format(Locale.ROOT,
				"The aspect's added cost per call, SpEL key included: **%.2f µs** (JMH mean of the annotated call over an "
						+ "in-memory lock, %.3f µs, minus the plain call, %.3f µs: %.0f× the plain call). Over "
						+ "ZooKeeper, the interleaved runs put the annotated call %+.1f µs per call from executeLocked "
						+ "on the same lock (ratio of throughputs %.3f); single JMH forks of the two differ by %+.1f µs, "
						+ "which is the noise of the ZooKeeper round trips on this machine.",
				aspectCost, inMemory.meanMicros(), plain.meanMicros(), inMemory.meanMicros() / plain.meanMicros(),
				interleavedDifference, interleaved.get(ANNOTATED).perSecond() / interleaved.get(PROGRAMMATIC).perSecond(),
				annotated.meanMicros() - programmatic.meanMicros()));
		table.note("The plain call is a reference, not a lock: it takes no lock at all, so its ratios show what "
				+ "locking costs, not where zklock is behind. Its throughput is not measured by the interleaved runs "
				+ "(their clock reads would dominate a 30 ns call).");
		Comparison interceptor = new Comparison("2b. The interceptor alone: " + IN_MEMORY + " against a plain call",
				IN_MEMORY, List.of(PLAIN)).reference(PLAIN);
		interceptor.row(Metric.cost("mean µs/call (JMH)", 3), Map.of(IN_MEMORY, inMemory.meanMicros(), PLAIN, plain.meanMicros()));
		interceptor.row(Metric.cost("p50 µs/call (JMH)", 3), Map.of(IN_MEMORY, inMemory.p50Micros(), PLAIN, plain.p50Micros()));
		interceptor.row(Metric.cost("p99 µs/call (JMH)", 3), Map.of(IN_MEMORY, inMemory.p99Micros(), PLAIN, plain.p99Micros()));
		context.results().add(table);
		context.results().add(interceptor);
	}

	private static Map<String, Double> row(double annotated, double plain, double programmatic) {
		Map<String, Double> values = new LinkedHashMap<>();
		values.put(ANNOTATED, annotated);
		values.put(PLAIN, plain);
		values.put(PROGRAMMATIC, programmatic);
		return values;
	}

}
