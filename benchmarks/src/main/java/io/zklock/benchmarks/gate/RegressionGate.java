package io.zklock.benchmarks.gate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zklock.benchmarks.BenchmarkOptions;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.load.ContendedLoad;
import io.zklock.benchmarks.load.DriverWarmUp;
import io.zklock.benchmarks.load.LoadOutcome;
import io.zklock.benchmarks.load.LoadSpec;
import io.zklock.benchmarks.peers.PauseTest;
import io.zklock.benchmarks.peers.PeerServers;
import io.zklock.benchmarks.jmh.UncontendedLockBenchmark;
import io.zklock.benchmarks.scenarios.InterleavedRun;
import io.zklock.benchmarks.server.ZooKeeperProcess;

/**
 * The regression gate CI runs ({@code benchmarks/run.sh --gate}): on a fresh standalone server,
 * the figures of zklock that do not depend on the machine, each against fixed bounds: requests
 * per uncontended cycle (3.00) and writes (2.00); requests per handoff in every contended
 * scenario; watch events per release, with 16 and with 100 waiters; lock nodes and watches
 * left once every thread has released; stale writes a fenced store accepted from a holder
 * paused past its session. One ratio to Curator in the same run, with a wide margin, catches a
 * slowdown no count shows. A change that adds a round trip to a cycle adds a request to it, and
 * fails the gate. Timings are never checked otherwise.
 */
public final class RegressionGate {

	/** The slack around an exact count per cycle: far less than one request. */
	private static final double EXACT = 0.005;

	/** The slack around a count per handoff of a contended run, whose window edges cut cycles. */
	private static final double PER_HANDOFF = 0.25;

	/**
	 * Requests per same-process handoff with local handoff: one write, plus each chain's create,
	 * listing, watch and delete; a chain the time bound (50 ms) cuts short on a slow machine costs
	 * more, so the bound is loose, and still less than one more request per handoff.
	 */
	private static final double LOCAL_HANDOFF_MAX = 1.75;

	/** The coarse ratio: zklock's uncontended cycles/s at least half Curator's (about 1.1–1.2× measured). */
	private static final double RATIO_TO_CURATOR = 0.5;

	private RegressionGate() {
	}

	/**
	 * Runs the gate.
	 * @param options the command line (its output folder)
	 * @return {@code true} if every check passed
	 * @throws Exception if the server or a run fails (a crash is a failure too)
	 */
	public static boolean run(BenchmarkOptions options) throws Exception {
		long start = System.nanoTime();
		List<GateCheck> checks = new ArrayList<>();
		try (ZooKeeperProcess server = ZooKeeperProcess.start(false)) {
			System.out.println("=== Regression gate on " + server.description());
			DriverWarmUp.run(server, List.of(Library.ZKLOCK, Library.ZKLOCK_LOCAL_HANDOFF, Library.CURATOR),
					Duration.ofMillis(900));
			uncontended(server, checks);
			contended(server, checks);
			PauseTest.Outcome pause = PauseTest.run("zklock", server.connectString(), null, "/bench/gate-pause",
					PeerServers.LEASE);
			checks.add(new GateCheck("paused holder (SIGSTOP for twice its session): stale writes accepted",
					pause.staleAccepted(), 0, 0, 0, "a fenced store took a write of a holder whose lock was gone"));
			checks.add(new GateCheck("paused holder: stale writes refused", pause.staleRefused(), 1, Double.MAX_VALUE, 0,
					"the woken holder wrote nothing: the fault lost its teeth"));
		}
		boolean passed = checks.stream().allMatch(GateCheck::passed);
		String report = report(checks, passed, (System.nanoTime() - start) / 1e9);
		System.out.println(report);
		Path file = options.output().resolve("GATE.md");
		Files.createDirectories(file.toAbsolutePath().getParent());
		Files.writeString(file, report, StandardCharsets.UTF_8);
		return passed;
	}

	private static void uncontended(ZooKeeperProcess server, List<GateCheck> checks) throws Exception {
		Map<String, InterleavedRun.TimedCall> cycles = new LinkedHashMap<>();
		List<AutoCloseable> resources = new ArrayList<>();
		try {
			for (Library library : List.of(Library.ZKLOCK, Library.CURATOR)) {
				ZkClient session = ZkClient.connect(server.connectString());
				resources.add(session);
				LockClient locks = library.open(session, "/bench/gate-uncontended");
				resources.add(0, locks);
				cycles.put(library.displayName(), () -> UncontendedLockBenchmark.cycle(locks, null));
			}
			Map<String, InterleavedRun.Figures> figures = new InterleavedRun(server, 6, Duration.ofMillis(250))
				.runTimed(cycles);
			InterleavedRun.Figures zklock = figures.get(Library.ZKLOCK.displayName());
			InterleavedRun.Figures curator = figures.get(Library.CURATOR.displayName());
			checks.add(new GateCheck("uncontended cycle: requests", zklock.requestsPerCall(), 3 - EXACT, 3 + EXACT, 2,
					"create, pipelined getChildren, delete: a change here adds or drops a round trip"));
			checks.add(new GateCheck("uncontended cycle: writes committed", zklock.commitsPerCall(), 2 - EXACT, 2 + EXACT,
					2, "create and delete"));
			checks.add(new GateCheck("uncontended cycles/s, zklock / Curator (same run)",
					zklock.perSecond() / curator.perSecond(), RATIO_TO_CURATOR, Double.MAX_VALUE, 2,
					"zklock fell far behind Curator's cycle (measured 1.1–1.2×)"));
		}
		finally {
			for (AutoCloseable resource : resources) {
				resource.close();
			}
		}
	}

	private static void contended(ZooKeeperProcess server, List<GateCheck> checks) throws Exception {
		ContendedLoad load = new ContendedLoad(server, "/bench/gate");
		Duration warmup = Duration.ofMillis(300);
		Duration window = Duration.ofMillis(1200);
		LoadOutcome hot = load.run(Library.ZKLOCK, new LoadSpec(16, 1, "hot-16x1", 0, warmup, window, false));
		perHandoff(checks, "16 clients × 1 thread", hot, 6);
		watchEvents(checks, "16 clients × 1 thread", hot);
		LoadOutcome herd = load.run(Library.ZKLOCK, new LoadSpec(100, 1, "herd", 0, warmup, window, false));
		perHandoff(checks, "100 clients × 1 thread", herd, 6);
		watchEvents(checks, "100 clients × 1 thread (herd check)", herd);
		LoadOutcome sameJvm = load.run(Library.ZKLOCK, new LoadSpec(4, 8, "hot-4x8", 0, warmup, window, false));
		perHandoff(checks, "4 clients × 8 threads", sameJvm, 6);
		LoadOutcome threads = load.run(Library.ZKLOCK, new LoadSpec(1, 16, "hot-1x16", 0, warmup, window, false));
		perHandoff(checks, "1 client × 16 threads", threads, 6);
		LoadOutcome chained = load.run(Library.ZKLOCK_LOCAL_HANDOFF,
				new LoadSpec(4, 8, "hot-4x8-local", 0, warmup, window, false));
		localHandoff(checks, "4 clients × 8 threads, local handoff", chained);
		LoadOutcome chainedThreads = load.run(Library.ZKLOCK_LOCAL_HANDOFF,
				new LoadSpec(1, 16, "hot-1x16-local", 0, warmup, window, false));
		localHandoff(checks, "1 client × 16 threads, local handoff", chainedThreads);
	}

	private static void perHandoff(List<GateCheck> checks, String load, LoadOutcome outcome, double expected) {
		checks.add(new GateCheck(load + ": requests/handoff", outcome.requestsPerOperation(), expected - PER_HANDOFF,
				expected + PER_HANDOFF, 2, "create, pipelined getChildren, addWatch, getData, multi(setData, delete), "
						+ "removeWatches; one more request per handoff is a round trip more"));
		leftovers(checks, load, outcome);
	}

	private static void localHandoff(List<GateCheck> checks, String load, LoadOutcome outcome) {
		checks.add(new GateCheck(load + ": requests/handoff", outcome.requestsPerOperation(), 1 - EXACT,
				LOCAL_HANDOFF_MAX, 2, "a same-process handoff is one write; a request more per handoff doubles it"));
		leftovers(checks, load, outcome);
	}

	private static void watchEvents(List<GateCheck> checks, String load, LoadOutcome outcome) {
		checks.add(new GateCheck(load + ": watch events/release", outcome.watchEventsPerRelease(), 2.9, 3.0 + EXACT, 3,
				"one waiter's persistent watch (data change, deletion in the data and child tables); "
						+ "more is a herd or a watch too many"));
	}

	private static void leftovers(List<GateCheck> checks, String load, LoadOutcome outcome) {
		checks.add(new GateCheck(load + ": lock nodes left", outcome.nodesLeft(), 0, 0, 0,
				"a released lock left its node behind"));
		checks.add(new GateCheck(load + ": watches left", outcome.watchesLeft(), 0, 0, 0,
				"a released lock left a watch on the server"));
	}

	private static String report(List<GateCheck> checks, boolean passed, double seconds) {
		StringBuilder out = new StringBuilder("# Regression gate\n\n");
		out.append(String.format(Locale.ROOT, "%s: %d of %d checks passed in %.0f s (zklock on a fresh standalone "
				+ "ZooKeeper server; counts from the server's own counters).%n%n", passed ? "PASSED" : "FAILED",
				checks.stream().filter(GateCheck::passed).count(), checks.size(), seconds));
		out.append("| check | measured | bounds | result | what a failure means |\n|---|---:|---|---|---|\n");
		checks.forEach((check) -> out.append(check.toMarkdownRow()).append('\n'));
		return out.toString();
	}

}
