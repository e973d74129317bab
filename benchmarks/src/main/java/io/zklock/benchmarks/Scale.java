package io.zklock.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * How long and how big each scenario runs: {@link #full()} for the committed results,
 * {@link #quick()} for CI (a few seconds per scenario, only to keep the harness compiling and
 * running; its figures are not meant to be quoted).
 *
 * @param name {@code "full"} or {@code "quick"}
 * @param jmhWarmupIterations JMH warm-up iterations per benchmark
 * @param jmhWarmupTime length of one JMH warm-up iteration
 * @param jmhIterations JMH measurement iterations per benchmark
 * @param jmhIterationTime length of one JMH measurement iteration
 * @param interleavedRounds counted rounds of the interleaved single-thread runs (scenarios 1-2)
 * @param interleavedSlice how long each library runs per interleaved round
 * @param driverWarmup how long the driver JVM runs each library (uncontended, contended,
 * read/write) before the load scenarios, so that the first library measured does not run on a
 * colder JVM than the others
 * @param loadWarmup warm-up of each load run, before its counters are read
 * @param loadMeasure measured window of a load point, split over the passes
 * @param loadPasses passes over the libraries per load point, each in the reverse order of
 * the one before
 * @param jmhBoundedWait whether JMH also runs scenario 1 with a bounded wait
 * @param curveClients the client counts of scenario 3's curve
 * @param herdWaiters the waiters of scenario 3's herd check
 * @param manyKeys the distinct lock paths of scenario 6
 * @param reapWait the longest wait for reaped containers in scenario 6
 * @param heldLocks the locks held at once in scenario 7
 * @param virtualThreads the virtual threads of scenario 8
 * @param virtualThreadCap the longest a library may take for them in scenario 8
 * @param peerKeys the key counts of scenario 12 (many keys against the peers)
 * @param pauseEveryLibrary whether scenario 13 pauses a holder of every library; otherwise of
 * zklock and of Redisson's RLock (the negative control) only
 */
public record Scale(String name, int jmhWarmupIterations, Duration jmhWarmupTime, int jmhIterations,
		Duration jmhIterationTime, int interleavedRounds, Duration interleavedSlice, Duration driverWarmup, Duration loadWarmup,
		Duration loadMeasure, int loadPasses, boolean jmhBoundedWait, List<Integer> curveClients, int herdWaiters, int manyKeys, Duration reapWait,
		int heldLocks, int virtualThreads, Duration virtualThreadCap, List<Integer> peerKeys,
		boolean pauseEveryLibrary) {

	/**
	 * The committed-results scale.
	 * @return the full scale
	 */
	public static Scale full() {
		return new Scale("full", 3, Duration.ofSeconds(2), 3, Duration.ofMillis(1500), 10, Duration.ofMillis(400),
				Duration.ofSeconds(4), Duration.ofMillis(500), Duration.ofSeconds(4), 2, true,
				List.of(1, 2, 4, 8, 16, 32), 100, 10_000, Duration.ofSeconds(60), 1000, 10_000, Duration.ofSeconds(180),
				List.of(1, 100, 10_000), true);
	}

	/**
	 * The CI scale.
	 * @return the quick scale
	 */
	public static Scale quick() {
		return new Scale("quick", 1, Duration.ofMillis(200), 1, Duration.ofMillis(400), 2, Duration.ofMillis(100),
				Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofMillis(500), 1, false, List.of(1, 16), 100,
				200, Duration.ofSeconds(20), 200, 2_000, Duration.ofSeconds(60), List.of(1, 100, 10_000), false);
	}

	/**
	 * Whether this is the quick (CI) scale.
	 * @return {@code true} for quick
	 */
	public boolean isQuick() {
		return "quick".equals(this.name);
	}

}
