package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * Runs several single-thread call loops (one per library or variant) in turn on the driver:
 * round after round, each variant runs for one short slice, in an order rotated every round.
 * Whatever else slows the machine down in the meantime hits every variant alike, so the
 * ratios between them hold even on a noisy machine. The server's request counter is read
 * around every slice, so requests per call are exact. The first round is a warm-up and is
 * not counted. A {@link TimedCall} also reports the time of a part of each call (such as the
 * acquire of an acquire + release cycle), whose median and 99th percentile are kept.
 */
final class InterleavedRun {

	private final ZooKeeperServer server;

	private final int rounds;

	private final Duration slice;

	/**
	 * Creates a run.
	 * @param server the server whose counters are read
	 * @param rounds the counted rounds
	 * @param slice how long each variant runs per round
	 */
	InterleavedRun(ZooKeeperServer server, int rounds, Duration slice) {
		this.server = server;
		this.rounds = rounds;
		this.slice = slice;
	}

	/**
	 * Runs the variants.
	 * @param variants the call of each variant, by name, in table order
	 * @return the figures by name, in table order
	 * @throws Exception if a call or the server fails
	 */
	Map<String, Figures> run(Map<String, Call> variants) throws Exception {
		Map<String, TimedCall> timed = new LinkedHashMap<>();
		variants.forEach((name, call) -> timed.put(name, () -> {
			call.run();
			return -1;
		}));
		return runTimed(timed);
	}

	/**
	 * Runs variants that time a part of each call.
	 * @param variants the call of each variant, by name, in table order
	 * @return the figures by name, in table order, with the timed part's percentiles
	 * @throws Exception if a call or the server fails
	 */
	Map<String, Figures> runTimed(Map<String, TimedCall> variants) throws Exception {
		ServerCounters counters = this.server.counters();
		List<String> names = List.copyOf(variants.keySet());
		Map<String, long[]> totals = new LinkedHashMap<>();
		Map<String, Samples> samples = new LinkedHashMap<>();
		names.forEach((name) -> {
			totals.put(name, new long[3]);
			samples.put(name, new Samples());
		});
		for (int round = 0; round <= this.rounds; round++) {
			for (int i = 0; i < names.size(); i++) {
				String name = names.get((i + round) % names.size());
				TimedCall call = variants.get(name);
				Samples timed = (round > 0) ? samples.get(name) : new Samples();
				ServerCounters.Mntr before = counters.mntr();
				long calls = 0;
				long start = System.nanoTime();
				long end = start + this.slice.toNanos();
				long now;
				do {
					timed.add(call.run());
					calls++;
					now = System.nanoTime();
				}
				while (now - end < 0);
				long packets = counters.mntr().packetsSince(before);
				if (round > 0) {
					long[] total = totals.get(name);
					total[0] += calls;
					total[1] += now - start;
					total[2] += packets;
				}
			}
		}
		Map<String, Figures> figures = new LinkedHashMap<>();
		totals.forEach((name, total) -> figures.put(name, new Figures(total[0] / (total[1] / 1e9),
				(double) total[2] / total[0], total[0], samples.get(name).percentileMicros(50),
				samples.get(name).percentileMicros(99))));
		return figures;
	}

	/**
	 * One variant's figures over all counted rounds.
	 * @param perSecond calls per second while it ran
	 * @param requestsPerCall server requests per call
	 * @param calls the calls counted
	 * @param timedP50Micros the median of the timed part of the calls, in µs; NaN if untimed
	 * @param timedP99Micros the 99th percentile of the timed part, in µs; NaN if untimed
	 */
	record Figures(double perSecond, double requestsPerCall, long calls, double timedP50Micros,
			double timedP99Micros) {
	}

	/** The timed parts of the counted calls of one variant, in nanoseconds. */
	private static final class Samples {

		private long[] nanos = new long[1024];

		private int size;

		void add(long sample) {
			if (sample < 0) {
				return;
			}
			if (this.size == this.nanos.length) {
				this.nanos = Arrays.copyOf(this.nanos, this.size * 2);
			}
			this.nanos[this.size++] = sample;
		}

		/** The percentile (nearest rank) in µs, or NaN without samples. */
		double percentileMicros(double percentile) {
			if (this.size == 0) {
				return Double.NaN;
			}
			long[] sorted = Arrays.copyOf(this.nanos, this.size);
			Arrays.sort(sorted);
			int rank = (int) Math.ceil(percentile / 100 * sorted.length);
			return sorted[Math.max(0, rank - 1)] / 1000.0;
		}

	}

	/** A call of one variant that times a part of itself. */
	@FunctionalInterface
	interface TimedCall {

		/**
		 * Makes the call.
		 * @return the nanoseconds of the timed part, or a negative number if none was timed
		 * @throws Exception if it fails
		 */
		long run() throws Exception;

	}

	/** A call of one variant. */
	@FunctionalInterface
	interface Call {

		/**
		 * Makes the call.
		 * @throws Exception if it fails
		 */
		void run() throws Exception;

	}

}
