package io.zklock.benchmarks.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.zklock.benchmarks.Scenario;
import io.zklock.benchmarks.ScenarioContext;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.load.VirtualThreadProbe;
import io.zklock.benchmarks.report.Comparison;
import io.zklock.benchmarks.report.Metric;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * Scenario 8: N virtual threads (10,000 in full runs), started at once, each take and release
 * one exclusive lock on one of {@value #PATHS} hot lock paths through {@value #CLIENTS} clients:
 * throughput, requests, carriers pinned (JFR) and the peak number of carrier threads, zklock
 * against Curator. Each library runs in a {@link VirtualThreadProbe} of its own on a Java 21+:
 * the JVM of {@code -Dbench.vthreads.java} ({@code benchmarks/run.sh} picks the newest JDK 21+
 * it finds, Temurin 25 on this kind of machine), else this JVM if it is 21+; otherwise the
 * scenario is skipped, and says so.
 */
public final class VirtualThreadScenario implements Scenario {

	/** The system property naming the {@code java} executable of a Java 21+ for the probes. */
	public static final String JAVA_PROPERTY = "bench.vthreads.java";

	static final int PATHS = 8;

	static final int CLIENTS = 2;

	private static final List<Library> LIBRARIES = List.of(Library.ZKLOCK, Library.CURATOR);

	@Override
	public int number() {
		return 8;
	}

	@Override
	public String title() {
		return "Virtual threads: one lock each on " + PATHS + " hot lock paths";
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		String java = probeJava();
		if (java == null) {
			String reason = "needs a Java 21+ for virtual threads; this JVM is Java " + Runtime.version().feature()
					+ " and -D" + JAVA_PROPERTY + " is not set (benchmarks/run.sh sets it to the newest JDK 21+ under "
					+ "/usr/lib/jvm, or to BENCH_VTHREADS_JAVA)";
			System.out.println("  skipped: " + reason);
			context.results().skip("Scenario 8 (" + title() + ")", reason);
			return;
		}
		int threads = context.scale().virtualThreads();
		long capSeconds = context.scale().virtualThreadCap().toSeconds();
		Map<Library, Map<String, Double>> probes = new LinkedHashMap<>();
		List<String> notes = new ArrayList<>();
		// a fresh server: the probes read its counters, which an in-process server stops reporting
		// once another in-process server of the same JVM (scenario 6's) was closed
		try (ZooKeeperServer server = context.kind().start()) {
			for (Library library : LIBRARIES) {
				probes.put(library, probe(java, library, server.connectString(), threads, capSeconds));
			}
		}
		for (Library library : LIBRARIES) {
			Map<String, Double> probe = probes.get(library);
			System.out.printf(Locale.ROOT, "  %-20s %,.0f of %,d done in %.2f s: %,.0f locks/s, %.2f requests/lock, "
					+ "%.0f pinned, peak %.0f carriers%n", library.displayName(), probe.get("done"), threads,
					probe.get("seconds"), probe.get("done") / probe.get("seconds"),
					probe.get("requests") / Math.max(1, probe.get("done")), probe.get("pinned"), probe.get("peakCarriers"));
			if (probe.get("finished") < 1) {
				notes.add(library.displayName() + " did not finish within " + capSeconds + " s: "
						+ String.format(Locale.ROOT, "%,.0f", probe.get("done")) + " of "
						+ String.format(Locale.ROOT, "%,d", threads) + " threads done.");
			}
			if (probe.get("violations") > 0) {
				throw new IllegalStateException(library.displayName() + " let a second holder in "
						+ probe.get("violations").longValue() + " times with virtual threads");
			}
			if (library == Library.ZKLOCK && (probe.get("failures") > 0 || probe.get("finished") < 1)) {
				throw new IllegalStateException("zklock's virtual threads did not all take their lock: "
						+ probe.get("failures").longValue() + " failed, " + probe.get("done").longValue() + " of "
						+ threads + " done");
			}
		}
		Comparison table = new Comparison(String.format(Locale.ROOT,
				"8. %,d virtual threads, one lock each on %d hot lock paths (%d clients)", threads, PATHS, CLIENTS),
				Library.ZKLOCK.displayName(), LoadTables.peers(LIBRARIES));
		table.row(Metric.throughput("locks/s (threads done / wall time)"), values(probes, (p) -> p.get("done") / p.get("seconds")));
		table.row(Metric.cost("wall time (s)", 2), values(probes, (p) -> p.get("seconds")));
		table.row(Metric.throughput("threads done"), values(probes, (p) -> p.get("done")));
		table.row(Metric.cost("ZooKeeper requests/lock (server count)", 2),
				values(probes, (p) -> p.get("requests") / p.get("done")));
		table.row(Metric.cost("watch events/release (server count)", 3),
				values(probes, (p) -> p.get("watchEvents") / p.get("done")));
		table.row(Metric.cost("carriers pinned (JFR jdk.VirtualThreadPinned, threshold 0)", 0),
				values(probes, (p) -> p.get("pinned")));
		table.row(Metric.cost("peak carrier threads", 0), values(probes, (p) -> p.get("peakCarriers")));
		Map<String, Double> zklock = probes.get(Library.ZKLOCK);
		table.note(String.format(Locale.ROOT, "Each library in a JVM of its own on Java %.0f (%s), virtual-thread scheduler "
				+ "parallelism %.0f; all threads are started at once, each takes one exclusive lock with a 10 min wait "
				+ "(zklock: call-owned `tryAcquire`; Curator: a new `InterProcessMutex` per acquire, since one instance "
				+ "shared by thousands of threads wakes them all on every release, CURATOR-716), on the lock path "
				+ "`hot-(n / %d) %% %d` of client n %% %d, on a fresh server of the same kind. Every client and path is "
				+ "warmed up first, alone and contended, on platform threads and then on virtual threads (a virtual "
				+ "thread takes other calls, whose classes only it loads). Wall time from the first start to the last thread's end; requests and watch "
				+ "events from the server's counters over that time. With a few thousand lock nodes per path, every acquire's listing is long, so these "
				+ "figures are far below scenario 3's. The console shows where each pinned event parked, with its "
				+ "stack: on JDK 24+ a virtual thread is still pinned while a native frame is on its stack, for "
				+ "example while it loads a class, so a library that loads classes lazily on its lock path may pin a "
				+ "few times on first use, which the warm-up takes out of the measured run.", zklock.get("javaFeature"), java, zklock.get("parallelism"),
				CLIENTS, PATHS, CLIENTS));
		notes.forEach(table::note);
		context.results().add(table);
		context.results().check(String.format(Locale.ROOT,
				"Scenario 8: %,d zklock virtual threads pinned %.0f carriers (JFR jdk.VirtualThreadPinned)", threads,
				zklock.get("pinned")), zklock.get("pinned") == 0);
	}

	/** The {@code java} to run the probes with, or {@code null} if there is no Java 21+. */
	static String probeJava() {
		String configured = System.getProperty(JAVA_PROPERTY, "").trim();
		if (!configured.isEmpty()) {
			return configured;
		}
		if (Runtime.version().feature() >= 21) {
			return Path.of(System.getProperty("java.home"), "bin", "java").toString();
		}
		return null;
	}

	private static Map<String, Double> values(Map<Library, Map<String, Double>> probes,
			ToDoubleFunction<Map<String, Double>> figure) {
		Map<String, Double> values = new LinkedHashMap<>();
		probes.forEach((library, probe) -> values.put(library.displayName(), figure.applyAsDouble(probe)));
		return values;
	}

	private static Map<String, Double> probe(String java, Library library, String connectString, int threads,
			long capSeconds) throws IOException, InterruptedException {
		List<String> command = List.of(java, "-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
				"-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", System.getProperty("java.class.path"),
				VirtualThreadProbe.class.getName(), library.id(), connectString, Integer.toString(threads),
				Integer.toString(PATHS), Integer.toString(CLIENTS), Long.toString(capSeconds));
		Path log = Files.createTempFile("zklock-vthreads-probe-", ".log");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			if (!process.waitFor(capSeconds + 120, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("The virtual-thread probe of " + library.displayName()
						+ " did not end within " + (capSeconds + 120) + " s; its output:\n"
						+ Files.readString(log, StandardCharsets.UTF_8));
			}
			String output = Files.readString(log, StandardCharsets.UTF_8);
			output.lines().filter((line) -> line.startsWith(VirtualThreadProbe.PINNED_PREFIX))
				.forEach((line) -> System.out.println("    " + library.displayName() + " " + line));
			return parse(library, process.exitValue(), output);
		}
		finally {
			Files.deleteIfExists(log);
		}
	}

	private static Map<String, Double> parse(Library library, int exitCode, String text) {
		for (String line : text.split("\n")) {
			if (line.startsWith(VirtualThreadProbe.PREFIX)) {
				Map<String, Double> values = new HashMap<>();
				for (String pair : line.substring(VirtualThreadProbe.PREFIX.length()).trim().split(" ")) {
					String[] keyValue = pair.split("=", 2);
					values.put(keyValue[0], Double.parseDouble(keyValue[1]));
				}
				return values;
			}
		}
		throw new IllegalStateException("The virtual-thread probe of " + library.displayName() + " exited with "
				+ exitCode + " without a result; its output:\n" + text);
	}

}
