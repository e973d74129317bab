package io.zklock.benchmarks.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.MemoryProbe;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;

/**
 * Scenario 7: the heap and threads of a client holding N locks at once, each library measured
 * by a {@link MemoryProbe} in a fresh JVM ({@code -XX:+UseSerialGC}, heap read after full GCs).
 */
public final class MemoryScenario implements Scenario {

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.CURATOR,
			Library.SPRING_INTEGRATION);

	@Override
	public int number() {
		return 7;
	}

	@Override
	public String title() {
		return "Memory: heap and threads of one client holding many locks at once";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		int locks = context.scale().heldLocks();
		Map<Library, Map<String, Double>> probes = new LinkedHashMap<>();
		for (Library library : LIBRARIES) {
			Map<String, Double> probe = probe(library, context.server().connectString(), locks);
			probes.put(library, probe);
			System.out.printf(Locale.ROOT, "  %-20s %s%n", library.displayName(), probe);
		}
		Comparison table = new Comparison(String.format(Locale.ROOT,
				"7. Memory: one client holding %,d locks at once (separate JVM per library)", locks),
				Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		table.row(Metric.cost(String.format(Locale.ROOT, "heap for %,d held locks (KiB)", locks), 0), values(probes,
				(p) -> (p.get("heapHolding") - p.get("heapConnected")) / 1024));
		table.row(Metric.cost("heap per held lock (bytes)", 0),
				values(probes, (p) -> (p.get("heapHolding") - p.get("heapConnected")) / locks));
		table.row(Metric.cost("heap of the connected client, no lock held (KiB)", 0),
				values(probes, (p) -> (p.get("heapConnected") - p.get("heapWithoutClient")) / 1024));
		table.row(Metric.cost("threads of the client (connected − before)", 0),
				values(probes, (p) -> p.get("threadsConnected") - p.get("threadsWithoutClient")));
		table.row(Metric.cost(String.format(Locale.ROOT, "threads added by holding %,d locks", locks), 0),
				values(probes, (p) -> p.get("threadsHolding") - p.get("threadsConnected")));
		table.row(Metric.cost(String.format(Locale.ROOT, "time to acquire the %,d locks (s)", locks), 2),
				values(probes, (p) -> p.get("acquireSeconds")));
		table.note("Heap is the used heap after four System.gc() calls (SerialGC, -Xmx256m), so it is the live set. "
				+ "'Connected client' is after one warm-up lock cycle, so the library's classes and caches are "
				+ "loaded; the held-lock figures are above that. Thread counts are the JVM's live threads.");
		context.results().add(table);
	}

	private static Map<String, Double> values(Map<Library, Map<String, Double>> probes,
			java.util.function.ToDoubleFunction<Map<String, Double>> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		probes.forEach((library, probe) -> values.put(library.displayName(), figure.applyAsDouble(probe)));
		return values;
	}

	private static Map<String, Double> probe(Library library, String connectString, int locks)
			throws IOException, InterruptedException {
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xms256m", "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
				MemoryProbe.class.getName(), library.id(), connectString, Integer.toString(locks));
		Path log = Files.createTempFile("zklock-memory-probe-", ".log");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			if (!process.waitFor(120, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(
						"The memory probe of " + library.displayName() + " did not finish in 120 s");
			}
			return parse(library, process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
		}
		finally {
			Files.deleteIfExists(log);
		}
	}

	private static Map<String, Double> parse(Library library, int exitCode, String text) {
		for (String line : text.split("\n")) {
			if (line.startsWith(MemoryProbe.PREFIX)) {
				Map<String, Double> values = new HashMap<>();
				for (String pair : line.substring(MemoryProbe.PREFIX.length()).trim().split(" ")) {
					String[] keyValue = pair.split("=", 2);
					values.put(keyValue[0], Double.parseDouble(keyValue[1]));
				}
				return values;
			}
		}
		throw new IllegalStateException("The memory probe of " + library.displayName() + " exited with "
				+ exitCode + " without a result; its output:\n" + text);
	}

}
