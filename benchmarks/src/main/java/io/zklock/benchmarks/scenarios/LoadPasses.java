package io.zklock.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.ContendedLoad;
import io.zklock.benchmarks.load.Contender;
import io.zklock.benchmarks.load.LoadOutcome;
import io.zklock.benchmarks.load.LoadSpec;

/**
 * Measures the libraries at one load point in passes, each in the reverse order of the one
 * before and with its share of the measured window, and adds the windows up: a slow phase of
 * the machine then hits every library about alike.
 */
final class LoadPasses {

	private LoadPasses() {
	}

	/**
	 * Runs the passes over ZooKeeper libraries.
	 * @param load the driver
	 * @param libraries the libraries, in the order of the first pass
	 * @param spec the load, with the whole measured window
	 * @param passes how many passes
	 * @param label what to print before each library's figures
	 * @return the combined outcome per library, in the order of {@code libraries}
	 * @throws Exception if a run fails
	 */
	static Map<Library, LoadOutcome> run(ContendedLoad load, List<Library> libraries, LoadSpec spec, int passes,
			String label) throws Exception {
		return run(libraries, Library::displayName, load::run, spec, passes, label);
	}

	/**
	 * Runs the passes over contenders (ZooKeeper libraries and peers).
	 * @param load the driver
	 * @param contenders the contenders, in the order of the first pass
	 * @param spec the load, with the whole measured window
	 * @param passes how many passes
	 * @param label what to print before each contender's figures
	 * @return the combined outcome per contender, in the order of {@code contenders}
	 * @throws Exception if a run fails
	 */
	static Map<Contender, LoadOutcome> contenders(ContendedLoad load, List<Contender> contenders, LoadSpec spec,
			int passes, String label) throws Exception {
		return run(contenders, Contender::displayName, load::run, spec, passes, label);
	}

	private static <K> Map<K, LoadOutcome> run(List<K> entries, Function<K, String> name, Runner<K> runner,
			LoadSpec spec, int passes, String label) throws Exception {
		LoadSpec share = spec.withMeasure(spec.measure().dividedBy(passes));
		Map<K, LoadOutcome> outcomes = new LinkedHashMap<>();
		entries.forEach((entry) -> outcomes.put(entry, null));
		List<K> order = new ArrayList<>(entries);
		for (int pass = 0; pass < passes; pass++) {
			for (K entry : order) {
				outcomes.merge(entry, runner.run(entry, share), LoadOutcome::plus);
			}
			Collections.reverse(order);
		}
		outcomes.forEach((entry, outcome) -> System.out.printf(Locale.ROOT,
				"  %-22s %s: %,8.0f ops/s, %.2f requests/op, %.3f watch events/release, acquire p50 %.0f µs p99 %.0f µs, "
						+ "release → grant p50 %.0f µs p99 %.0f µs%s%n",
				name.apply(entry), label, outcome.perSecond(), outcome.requestsPerOperation(),
				outcome.watchEventsPerRelease(), outcome.acquireMicros(50), outcome.acquireMicros(99),
				outcome.handoffGapMicros(50), outcome.handoffGapMicros(99),
				(outcome.peakLockNodes() >= 0) ? ", " + outcome.peakLockNodes() + " lock nodes at peak" : ""));
		return outcomes;
	}

	/**
	 * Runs one entry under one load.
	 * @param <K> a library or contender
	 */
	@FunctionalInterface
	private interface Runner<K> {

		LoadOutcome run(K entry, LoadSpec spec) throws Exception;

	}

}
