package io.zklock.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.ContendedLoad;
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
	 * Runs the passes.
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
		LoadSpec share = new LoadSpec(spec.clients(), spec.threadsPerClient(), spec.lockPath(), spec.writeShare(),
				spec.warmup(), spec.measure().dividedBy(passes), spec.observeLockNodes());
		Map<Library, LoadOutcome> outcomes = new LinkedHashMap<>();
		libraries.forEach((library) -> outcomes.put(library, null));
		List<Library> order = new ArrayList<>(libraries);
		for (int pass = 0; pass < passes; pass++) {
			for (Library library : order) {
				outcomes.merge(library, load.run(library, share), LoadOutcome::plus);
			}
			Collections.reverse(order);
		}
		outcomes.forEach((library, outcome) -> System.out.printf(Locale.ROOT,
				"  %-20s %s: %,8.0f ops/s, %.2f requests/op, %.3f watch events/release, release → grant p50 %.0f µs p99 %.0f µs%s%n",
				library.displayName(), label, outcome.perSecond(), outcome.requestsPerOperation(),
				outcome.watchEventsPerRelease(), outcome.handoffGapMicros(50), outcome.handoffGapMicros(99),
				(outcome.peakLockNodes() >= 0) ? ", " + outcome.peakLockNodes() + " lock nodes at peak" : ""));
		return outcomes;
	}

}
