package io.zklock.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.gate.RegressionGate;
import io.zklock.benchmarks.jmh.JmhRunner;
import io.zklock.benchmarks.load.DriverWarmUp;
import io.zklock.benchmarks.peers.PeerServers;
import io.zklock.benchmarks.report.ReportTable;
import io.zklock.benchmarks.report.Environment;
import io.zklock.benchmarks.report.HandoffChart;
import io.zklock.benchmarks.report.MarkdownReport;
import io.zklock.benchmarks.report.ResultsFile;
import io.zklock.benchmarks.scenarios.AnnotationScenario;
import io.zklock.benchmarks.scenarios.GiveUpScenario;
import io.zklock.benchmarks.scenarios.HotLockScenario;
import io.zklock.benchmarks.scenarios.LeadershipScenario;
import io.zklock.benchmarks.scenarios.ManyKeysScenario;
import io.zklock.benchmarks.scenarios.MemoryScenario;
import io.zklock.benchmarks.scenarios.PauseScenario;
import io.zklock.benchmarks.scenarios.PeerContentionScenario;
import io.zklock.benchmarks.scenarios.PeerManyKeysScenario;
import io.zklock.benchmarks.scenarios.PeerUncontendedScenario;
import io.zklock.benchmarks.scenarios.ReadMostlyScenario;
import io.zklock.benchmarks.scenarios.SameJvmContentionScenario;
import io.zklock.benchmarks.scenarios.UncontendedScenario;
import io.zklock.benchmarks.scenarios.VirtualThreadScenario;
import io.zklock.benchmarks.server.ServerKind;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * Runs the benchmarks: for each server, every scenario against zklock and its peers; then
 * prints the tables and writes {@code RESULTS.md} and scenario 3's chart. Exits with 1 if any
 * scenario crashed, 2 on a bad command line.
 */
public final class BenchmarkMain {

	private static final List<Scenario> SCENARIOS = List.of(new UncontendedScenario(), new AnnotationScenario(),
			new HotLockScenario(), new SameJvmContentionScenario(), new ReadMostlyScenario(), new ManyKeysScenario(),
			new MemoryScenario(), new VirtualThreadScenario(), new PeerUncontendedScenario(),
			PeerContentionScenario.processes(), PeerContentionScenario.threads(), new PeerManyKeysScenario(),
			new PauseScenario(), new GiveUpScenario(), new LeadershipScenario());

	private BenchmarkMain() {
	}

	/**
	 * Runs the benchmarks.
	 * @param args see {@link BenchmarkOptions#USAGE}
	 * @throws Exception if the results cannot be written
	 */
	public static void main(String[] args) throws Exception {
		BenchmarkOptions options;
		try {
			options = BenchmarkOptions.parse(args, Path.of(System.getProperty("bench.module", "benchmarks")));
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		if (options.gate()) {
			boolean passed;
			try {
				passed = RegressionGate.run(options);
			}
			catch (Exception ex) {
				ex.printStackTrace(System.out);
				System.out.println("The regression gate crashed: " + ex);
				passed = false;
			}
			System.exit(passed ? 0 : 1);
			return;
		}
		long start = System.nanoTime();
		String loadBefore = Environment.loadAverage();
		List<ServerResults> all = new ArrayList<>();
		for (ServerKind kind : options.servers()) {
			all.add(runOn(kind, options));
		}
		String load = "before " + loadBefore + ", after " + Environment.loadAverage()
				+ " (1/5/15 min; the benchmarks alone keep about 2 busy on this machine)";
		boolean crashed = write(options, all, load, (System.nanoTime() - start) / 1e9);
		System.out.printf(Locale.ROOT, "%nBenchmarks (%s) took %.0f s; results in %s%n", options.scale().name(),
				(System.nanoTime() - start) / 1e9, options.output().resolve("RESULTS.md"));
		System.exit(crashed ? 1 : 0);
	}

	private static ServerResults runOn(ServerKind kind, BenchmarkOptions options) {
		System.out.printf(Locale.ROOT, "%n=== Starting the %s ZooKeeper server%n", kind.optionValue());
		ZooKeeperServer server;
		try {
			server = kind.start();
		}
		catch (Exception ex) {
			ServerResults results = new ServerResults(kind, kind.optionValue() + " server");
			results.fail("starting the " + kind.optionValue() + " server", ex);
			ex.printStackTrace();
			return results;
		}
		try (server; PeerServers peers = new PeerServers(kind == ServerKind.ENSEMBLE)) {
			ServerResults results = new ServerResults(kind, server.description());
			ScenarioContext context = new ScenarioContext(server, kind, options.scale(),
					new JmhRunner(options.scale()), results, peers);
			boolean driverWarm = false;
			for (Scenario scenario : SCENARIOS) {
				if (!options.runs(scenario.number()) || !options.quickRuns(kind, scenario.number())) {
					continue;
				}
				if (!driverWarm) {
					driverWarm = warmUpDriver(server, kind, options.scale(), results);
				}
				long start = System.nanoTime();
				System.out.printf(Locale.ROOT, "%n=== [%s server] Scenario %d. %s%n", kind.optionValue(),
						scenario.number(), scenario.title());
				try {
					scenario.run(context);
					System.out.printf(Locale.ROOT, "=== Scenario %d done in %.1f s%n", scenario.number(),
							(System.nanoTime() - start) / 1e9);
				}
				catch (Throwable ex) {
					System.out.printf(Locale.ROOT, "=== Scenario %d CRASHED after %.1f s%n", scenario.number(),
							(System.nanoTime() - start) / 1e9);
					ex.printStackTrace(System.out);
					results.fail("Scenario " + scenario.number() + " (" + scenario.title() + ")", ex);
				}
			}
			return results;
		}
	}

	private static boolean warmUpDriver(ZooKeeperServer server, ServerKind kind, Scale scale, ServerResults results) {
		// warms the server's JIT too, before the first JMH fork (zklock's) talks to it
		System.out.printf(Locale.ROOT, "%n=== [%s server] Warming up the driver JVM and the server: %d ms per library%n",
				kind.optionValue(), scale.driverWarmup().toMillis());
		try {
			DriverWarmUp.run(server, List.of(Library.values()), scale.driverWarmup());
		}
		catch (Exception ex) {
			ex.printStackTrace(System.out);
			results.fail("Warming up the driver JVM", ex);
		}
		return true;
	}

	private static boolean write(BenchmarkOptions options, List<ServerResults> all, String load, double seconds)
			throws Exception {
		Path output = options.output();
		Map<ServerResults, String> charts = new LinkedHashMap<>();
		for (ServerResults results : all) {
			if (results.curve().isEmpty()) {
				continue;
			}
			String name = "results/scenario3-handoffs-" + results.kind().optionValue() + ".png";
			Map<String, SortedMap<Integer, Double>> series = new LinkedHashMap<>();
			for (Map.Entry<Library, TreeMap<Integer, Double>> entry : results.curve().entrySet()) {
				series.put(entry.getKey().displayName(), entry.getValue());
			}
			HandoffChart.write("Scenario 3: one hot lock, handoffs/s (" + results.kind().optionValue() + " server)",
					series, output.resolve(name));
			charts.put(results, name);
		}
		String scale = describe(options.scale());
		Map<String, String> environment = Environment.describe();
		environment.put("load average", load);
		environment.put("run time", String.format(Locale.ROOT, "%.1f min", seconds / 60));
		String report = new MarkdownReport(environment, options.command(), scale, all, charts).render();
		ResultsFile.write(output.resolve("RESULTS.md"), "# zklock benchmarks", report);
		boolean crashed = false;
		System.out.println();
		for (ServerResults results : all) {
			System.out.println("##### " + results.serverDescription());
			for (ReportTable table : results.tables()) {
				System.out.println("\n" + table.title() + "\n" + table.toMarkdown());
			}
			results.targets().forEach((target) -> System.out.printf(Locale.ROOT, "TARGET %s: zklock %s, %s %s, ratio %s (%s): %s%n",
					target.figure(), String.format(Locale.ROOT, "%,." + target.decimals() + "f", target.zklock()),
					target.peer(), String.format(Locale.ROOT, "%,." + target.decimals() + "f", target.peerValue()),
					String.format(Locale.ROOT, "%.2f", target.zklock() / target.peerValue()), target.goal(),
					target.met() ? "met" : "MISSED"));
			results.checks()
				.forEach((check) -> System.out.println((check.passed() ? "PASS: " : "FAIL: ") + check.description()));
			results.skipped().forEach((skip) -> System.out.println("SKIPPED: " + skip));
			for (String failure : results.failures()) {
				System.out.println("CRASHED: " + failure);
				crashed = true;
			}
		}
		return crashed;
	}

	private static String describe(Scale scale) {
		return String.format(Locale.ROOT,
				"%s: JMH (scenarios 1-2) 1 fork per benchmark and parameter set, %d warm-up × %d ms, %d measured × %d ms, "
						+ "sample-time mode%s; interleaved driver runs (scenarios 1-2) %d rounds × %d ms per variant after a "
						+ "warm-up round; driver warm-up %d ms per library; load points (scenarios 3-5) %d pass(es) in "
						+ "alternating order, each run %d ms warm-up then a %d ms window; %,d waiters in the herd check; "
						+ "%,d keys (scenario 6); %,d held locks (scenario 7); %,d virtual threads, at most %d s per library "
						+ "(scenario 8); %d give-ups per library and wait below 200 ms, %d at 200 ms and 1 s (scenario 14)",
				scale.name(), scale.jmhWarmupIterations(), scale.jmhWarmupTime().toMillis(), scale.jmhIterations(),
				scale.jmhIterationTime().toMillis(), scale.jmhBoundedWait() ? "" : " (unbounded wait only)",
				scale.interleavedRounds(), scale.interleavedSlice().toMillis(), scale.driverWarmup().toMillis(),
				scale.loadPasses(), scale.loadWarmup().toMillis(), scale.loadMeasure().dividedBy(scale.loadPasses()).toMillis(),
				scale.herdWaiters(), scale.manyKeys(), scale.heldLocks(), scale.virtualThreads(),
				scale.virtualThreadCap().toSeconds(), scale.giveUpSamples(), scale.giveUpLongSamples());
	}

}
