package io.zklock.benchmarks.profile;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

import io.zklock.benchmarks.client.BaselineZklockClient;
import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.ListingFirstClient;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ProtocolFloorClient;
import io.zklock.benchmarks.client.ProtocolLadder;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.jmh.UncontendedLockBenchmark;
import io.zklock.benchmarks.load.LatencySamples;
import io.zklock.benchmarks.scenarios.InterleavedRun;
import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.benchmarks.server.ThreadCpu;
import io.zklock.benchmarks.server.ZooKeeperProcess;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockMode;

/**
 * One library's uncontended cycle in a loop on one thread, for a profiler: nothing else runs in
 * this JVM, so a JFR recording of it ({@code -XX:StartFlightRecording}) holds that library's
 * CPU samples, allocations and thread hand-offs only. Starts a standalone ZooKeeper server (as
 * scenario 9's process server) unless given a connect string, warms up, then runs the measured
 * window and prints cycles/s, the acquire's and the cycle's percentiles, the CPU of this JVM's
 * Java threads and the heap allocated per cycle, the collector's pauses in the window, and the
 * server's own latency counters ({@code mntr}, reset before the window with {@code srst}), so
 * that a slow tail can be put on the client or on the server.
 *
 * <pre>
 * java -XX:StartFlightRecording=filename=zklock.jfr,settings=profile -cp … \
 *     io.zklock.benchmarks.profile.CycleLoop zklock 30
 * </pre>
 *
 * Arguments: the library ({@code zklock}, {@code zklock-nosites} (without recording where each
 * lock was acquired), {@code curator}, {@code floor}, a rung of
 * {@link ProtocolLadder} such as {@code rung:curator_background}, {@code listing-first} (the
 * order measured and not adopted, {@link ListingFirstClient}), or {@code baseline} with
 * {@code -Dbench.baseline=<zklock-core jar>}), the measured seconds, optionally a server's
 * connect string.
 */
public final class CycleLoop {

	private static final Duration WARM_UP = Duration.ofSeconds(8);

	private CycleLoop() {
	}

	/**
	 * Runs the loop.
	 * @param args library, seconds, optional connect string
	 * @throws Exception if the library or the server fails
	 */
	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			System.err.println("usage: CycleLoop zklock|zklock-nosites|curator|floor|rung:<rung>|listing-first|baseline SECONDS [CONNECT_STRING]");
			System.exit(2);
		}
		String library = args[0];
		Duration window = Duration.ofSeconds(Long.parseLong(args[1]));
		ZooKeeperProcess started = (args.length > 2) ? null : ZooKeeperProcess.start(false);
		String connectString = (started != null) ? started.connectString() : args[2];
		List<AutoCloseable> resources = new ArrayList<>();
		if (library.contains(",")) {
			try {
				interleaved(library.split(","), window, started, connectString, resources);
			}
			finally {
				for (AutoCloseable resource : resources) {
					resource.close();
				}
				if (started != null) {
					started.close();
				}
			}
			return;
		}
		try {
			LockClient locks = open(library, connectString, resources);
			ServerCounters server = (started != null) ? started.counters() : null;
			run(locks, WARM_UP, null, false);
			System.out.printf(Locale.ROOT, "%s on %s, measuring %d s%n", library, connectString, window.toSeconds());
			Map<String, String> before = (server != null) ? latencies(server) : Map.of();
			run(locks, window, server, true);
			if (server != null) {
				Map<String, String> after = latencies(server);
				System.out.println("server latency counters (mntr, ms; the window's requests only where reset):");
				after.forEach((key, value) -> System.out.printf(Locale.ROOT, "  %-40s %s (before %s)%n", key, value,
						before.getOrDefault(key, "-")));
			}
		}
		finally {
			for (AutoCloseable resource : resources) {
				resource.close();
			}
			if (started != null) {
				started.close();
			}
		}
	}

	/**
	 * Several libraries in one interleaved run ({@link InterleavedRun}, slices of 400 ms, one round
	 * per second of the window), each warmed up first: figures of all of them from the same
	 * minutes of the machine.
	 */
	private static void interleaved(String[] libraries, Duration window, ZooKeeperProcess server, String connectString,
			List<AutoCloseable> resources) throws Exception {
		Map<String, InterleavedRun.TimedCall> calls = new java.util.LinkedHashMap<>();
		for (String library : libraries) {
			LockClient locks = open(library, connectString, resources);
			run(locks, WARM_UP.dividedBy(2), null, false);
			calls.put(library, () -> UncontendedLockBenchmark.cycle(locks, null));
		}
		System.out.printf(Locale.ROOT, "%d libraries interleaved on %s, %d rounds of 400 ms each%n", libraries.length,
				connectString, window.toSeconds());
		Map<String, InterleavedRun.Figures> figures = new InterleavedRun(server, (int) window.toSeconds(),
				Duration.ofMillis(400)).runTimed(calls);
		figures.forEach((name, figure) -> System.out.printf(Locale.ROOT,
				"  %-26s %,6.0f cycles/s %5.0f µs/cycle, acquire p50 %4.0f p99 %5.0f µs, %.2f requests, server CPU %3.0f µs, "
						+ "client CPU %3.0f µs (caller %3.0f), %,6.0f bytes%n",
				name, figure.perSecond(), 1e6 / figure.perSecond(), figure.timedP50Micros(), figure.timedP99Micros(),
				figure.requestsPerCall(), figure.serverCpuMicrosPerCall(), figure.threadsCpuMicrosPerCall(),
				figure.callerCpuMicrosPerCall(), figure.allocatedBytesPerCall()));
	}

	private static LockClient open(String library, String connectString, List<AutoCloseable> resources)
			throws Exception {
		String root = "/bench/cycle-loop";
		if (library.equals("floor")) {
			LockClient floor = ProtocolFloorClient.connect(connectString, root);
			resources.add(floor);
			return floor;
		}
		ZkClient session = ZkClient.connect(connectString);
		resources.add(session);
		if (library.equals("zklock-nosites")) {
			LockEngine engine = LockEngine.builder(session.curator())
				.rootPath(root + "/zklock-nosites")
				.localHandoff(false)
				.leakDetection(false, null)
				.build();
			ExclusiveLockByCurator exclusive = new ExclusiveLockByCurator(engine);
			resources.add(0, engine);
			return new LockClient() {

				@Override
				public Held lock(String lockPath, LockMode mode) {
					return exclusive.acquire(lockPath, mode)::release;
				}

				@Override
				public Held lock(String lockPath, LockMode mode, Duration wait) {
					return lock(lockPath, mode);
				}

				@Override
				public String zooKeeperPath(String lockPath) {
					return root + "/zklock-nosites/" + lockPath;
				}

			};
		}
		LockClient locks = library.equals("baseline") ? BaselineZklockClient.open(session, root)
				: library.equals("listing-first") ? ListingFirstClient.open(session, root)
				: library.startsWith("rung:") ? ProtocolLadder.open(
						ProtocolLadder.Rung.valueOf(library.substring("rung:".length()).toUpperCase(Locale.ROOT)), session,
						root)
				: Library.ofId(library).open(session, root);
		resources.add(0, locks);
		return locks;
	}

	private static void run(LockClient locks, Duration window, ServerCounters server, boolean report) throws Exception {
		LatencySamples acquires = new LatencySamples();
		LatencySamples cycles = new LatencySamples();
		long gcCount = gcCount();
		long gcMillis = gcMillis();
		ThreadCpu threadsBefore = ThreadCpu.now();
		if (server != null) {
			server.send("srst");
		}
		WakeUpProbe wakeUps = report ? WakeUpProbe.start() : null;
		long calls = 0;
		long start = System.nanoTime();
		long end = start + window.toNanos();
		long now = start;
		while (now - end < 0) {
			long acquired = UncontendedLockBenchmark.cycle(locks, null);
			long after = System.nanoTime();
			acquires.add(acquired);
			cycles.add(after - now);
			now = after;
			calls++;
		}
		ThreadCpu threadsAfter = ThreadCpu.now();
		ThreadCpu.Usage threads = threadsAfter.since(threadsBefore);
		if (wakeUps != null) {
			wakeUps.stop();
		}
		if (!report) {
			return;
		}
		double seconds = (now - start) / 1e9;
		System.out.printf(Locale.ROOT, "  %,d cycles in %.1f s: %,.0f cycles/s, %.0f µs per cycle%n", calls, seconds,
				calls / seconds, seconds * 1e6 / calls);
		System.out.printf(Locale.ROOT, "  acquire p50 %.0f µs, p90 %.0f, p99 %.0f, p99.9 %.0f, max %.0f%n",
				acquires.percentileMicros(50), acquires.percentileMicros(90), acquires.percentileMicros(99),
				acquires.percentileMicros(99.9), acquires.percentileMicros(100));
		System.out.printf(Locale.ROOT, "  cycle   p50 %.0f µs, p90 %.0f, p99 %.0f, p99.9 %.0f, max %.0f%n",
				cycles.percentileMicros(50), cycles.percentileMicros(90), cycles.percentileMicros(99),
				cycles.percentileMicros(99.9), cycles.percentileMicros(100));
		System.out.printf(Locale.ROOT, "  client CPU %.1f µs per cycle (caller %.1f), %,.0f bytes allocated per cycle%n",
				threads.threadsCpuNanos() / 1e3 / calls, threads.callerCpuNanos() / 1e3 / calls,
				(double) threads.allocatedBytes() / calls);
		System.out.printf(Locale.ROOT, "  collector: %d collections, %d ms in the window%n", gcCount() - gcCount,
				gcMillis() - gcMillis);
		long counted = calls;
		threadsAfter.byName(threadsBefore).forEach((name, nanos) -> {
			if (nanos / 1e3 / counted >= 0.5) {
				System.out.printf(Locale.ROOT, "  CPU of %-40s %6.1f µs per cycle%n", name, nanos / 1e3 / counted);
			}
		});
		if (wakeUps != null) {
			LatencySamples late = wakeUps.lateness();
			System.out.printf(Locale.ROOT,
					"  thread wake-up lateness on this machine (a probe thread parking %d µs, %,d times): p50 %.0f µs, "
							+ "p90 %.0f, p99 %.0f, p99.9 %.0f, max %.0f%n",
					WakeUpProbe.PARK_MICROS, wakeUps.count(), late.percentileMicros(50), late.percentileMicros(90),
					late.percentileMicros(99), late.percentileMicros(99.9), late.percentileMicros(100));
		}
	}

	/**
	 * How late a thread wakes up on this machine while the loop runs: a daemon thread parks for
	 * {@value #PARK_MICROS} µs again and again and records by how much each wake-up overshot. On a
	 * machine with more runnable threads than cores, a woken thread waits for a core; every thread
	 * hand-off of a cycle (the client's I/O thread waking the caller, the server's request
	 * pipeline) pays that wait, which no library can avoid, only make rarer.
	 */
	private static final class WakeUpProbe {

		static final long PARK_MICROS = 1000;

		private final LatencySamples lateness = new LatencySamples();

		private final Thread thread;

		private volatile boolean running = true;

		private WakeUpProbe() {
			this.thread = new Thread(this::probe, "wake-up-probe");
			this.thread.setDaemon(true);
		}

		static WakeUpProbe start() {
			WakeUpProbe probe = new WakeUpProbe();
			probe.thread.start();
			return probe;
		}

		private void probe() {
			long park = PARK_MICROS * 1000;
			while (this.running) {
				long before = System.nanoTime();
				LockSupport.parkNanos(park);
				long late = System.nanoTime() - before - park;
				synchronized (this.lateness) {
					this.lateness.add(Math.max(0, late));
				}
			}
		}

		void stop() throws InterruptedException {
			this.running = false;
			this.thread.join();
		}

		LatencySamples lateness() {
			return this.lateness;
		}

		int count() {
			return this.lateness.sorted().length;
		}

	}

	/** The server's latency counters: every {@code mntr} key about latency. */
	private static Map<String, String> latencies(ServerCounters server) throws Exception {
		Map<String, String> latencies = new TreeMap<>();
		server.mntr().values().forEach((key, value) -> {
			if (key.contains("latency") || key.contains("commit_process_time") || key.contains("sync_process_time")) {
				latencies.put(key, value);
			}
		});
		return latencies;
	}

	private static long gcCount() {
		return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount)
			.sum();
	}

	private static long gcMillis() {
		return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime)
			.sum();
	}

}
