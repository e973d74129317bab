package io.zklock.benchmarks.scenarios;

import java.time.Duration;
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
 * not counted.
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
		ServerCounters counters = this.server.counters();
		List<String> names = List.copyOf(variants.keySet());
		Map<String, long[]> totals = new LinkedHashMap<>();
		names.forEach((name) -> totals.put(name, new long[3]));
		for (int round = 0; round <= this.rounds; round++) {
			for (int i = 0; i < names.size(); i++) {
				String name = names.get((i + round) % names.size());
				Call call = variants.get(name);
				ServerCounters.Mntr before = counters.mntr();
				long calls = 0;
				long start = System.nanoTime();
				long end = start + this.slice.toNanos();
				long now;
				do {
					call.run();
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
		totals.forEach((name, total) -> figures.put(name,
				new Figures(total[0] / (total[1] / 1e9), (double) total[2] / total[0], total[0])));
		return figures;
	}

	/**
	 * One variant's figures over all counted rounds.
	 * @param perSecond calls per second while it ran
	 * @param requestsPerCall server requests per call
	 * @param calls the calls counted
	 */
	record Figures(double perSecond, double requestsPerCall, long calls) {
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
