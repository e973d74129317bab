package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zklock.benchmarks.load.LatencySamples;
import io.zklock.benchmarks.server.ProcessCpu;
import io.zklock.benchmarks.server.RequestCounter;
import io.zklock.benchmarks.server.ThreadCpu;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * Runs several single-thread call loops (one per library or variant) in turn on the driver:
 * round after round, each variant runs for one short slice, in an order rotated every round.
 * Whatever else slows the machine down in the meantime hits every variant alike, so the
 * ratios between them hold even on a noisy machine. The server's request counter is read
 * around every slice, so requests per call are exact; so are its writes and its CPU time, and
 * this JVM's: the whole process's, and each Java thread's ({@link ThreadCpu}), so that the CPU and
 * the heap a slice's library used (the calling thread and the library's own threads; the other
 * libraries' threads are idle meanwhile) are told apart from the garbage collector's and the
 * JIT's. The first round is a warm-up and is not counted. A {@link TimedCall} also reports the time of a part of each call (such as the
 * acquire of an acquire + release cycle), whose median and 99th percentile are kept.
 */
public final class InterleavedRun {

	private final ZooKeeperServer server;

	private final int rounds;

	private final Duration slice;

	/**
	 * Creates a run.
	 * @param server the server whose counters are read
	 * @param rounds the counted rounds
	 * @param slice how long each variant runs per round
	 */
	public InterleavedRun(ZooKeeperServer server, int rounds, Duration slice) {
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
	public Map<String, Figures> run(Map<String, Call> variants) throws Exception {
		Map<String, TimedCall> timed = new LinkedHashMap<>();
		variants.forEach((name, call) -> timed.put(name, () -> {
			call.run();
			return -1;
		}));
		return runTimed(timed);
	}

	/**
	 * Runs variants that time a part of each call, all counted by this run's server.
	 * @param variants the call of each variant, by name, in table order
	 * @return the figures by name, in table order, with the timed part's percentiles
	 * @throws Exception if a call or the server fails
	 */
	public Map<String, Figures> runTimed(Map<String, TimedCall> variants) throws Exception {
		Map<String, Variant> counted = new LinkedHashMap<>();
		variants.forEach((name, call) -> counted.put(name, new Variant(call, this.server.counters())));
		return runCounted(counted);
	}

	/**
	 * Runs variants each counted by its own server (a peer's, say).
	 * @param variants the call and counter of each variant, by name, in table order
	 * @return the figures by name, in table order
	 * @throws Exception if a call or a server fails
	 */
	public Map<String, Figures> runCounted(Map<String, Variant> variants) throws Exception {
		List<String> names = List.copyOf(variants.keySet());
		Map<String, long[]> totals = new LinkedHashMap<>();
		Map<String, LatencySamples> samples = new LinkedHashMap<>();
		names.forEach((name) -> {
			totals.put(name, new long[9]);
			samples.put(name, new LatencySamples());
		});
		for (int round = 0; round <= this.rounds; round++) {
			for (int i = 0; i < names.size(); i++) {
				String name = names.get((i + round) % names.size());
				Variant variant = variants.get(name);
				LatencySamples timed = (round > 0) ? samples.get(name) : new LatencySamples();
				RequestCounter.Reading before = variant.counter().read();
				long clientCpu = ProcessCpu.self();
				ThreadCpu threadsBefore = ThreadCpu.now();
				long calls = 0;
				long start = System.nanoTime();
				long end = start + this.slice.toNanos();
				long now;
				do {
					timed.add(variant.call().run());
					calls++;
					now = System.nanoTime();
				}
				while (now - end < 0);
				ThreadCpu.Usage threads = ThreadCpu.now().since(threadsBefore);
				clientCpu = ProcessCpu.self() - clientCpu;
				RequestCounter.Reading after = variant.counter().read();
				if (round > 0) {
					long[] total = totals.get(name);
					total[0] += calls;
					total[1] += now - start;
					total[2] = add(total[2], after.requestsSince(before));
					total[3] = add(total[3], after.commitsSince(before));
					total[4] = add(total[4], after.serverCpuNanosSince(before));
					total[5] = add(total[5], clientCpu);
					total[6] += threads.threadsCpuNanos();
					total[7] += threads.callerCpuNanos();
					total[8] += threads.allocatedBytes();
				}
			}
		}
		Map<String, Figures> figures = new LinkedHashMap<>();
		totals.forEach((name, total) -> figures.put(name, new Figures(total[0] / (total[1] / 1e9),
				per(total[2], total[0]), total[0], samples.get(name).percentileMicros(50),
				samples.get(name).percentileMicros(99), per(total[3], total[0]), per(total[4], total[0]) / 1e3,
				per(total[5], total[0]) / 1e3, threadFigure(total[6], total[0]) / 1e3,
				threadFigure(total[7], total[0]) / 1e3, threadFigure(total[8], total[0]),
				samples.get(name).percentileMicros(25))));
		return figures;
	}

	/** Adds a count to a total; an unknown (negative) count makes the total unknown. */
	private static long add(long total, long count) {
		return (total < 0 || count < 0) ? -1 : total + count;
	}

	private static double per(long total, long calls) {
		return (total < 0) ? Double.NaN : (double) total / calls;
	}

	private static double threadFigure(long total, long calls) {
		return ThreadCpu.supported() ? per(total, calls) : Double.NaN;
	}

	/**
	 * One variant's figures over all counted rounds.
	 * @param perSecond calls per second while it ran
	 * @param requestsPerCall server requests per call; NaN if the server cannot count them
	 * @param calls the calls counted
	 * @param timedP50Micros the median of the timed part of the calls, in µs; NaN if untimed
	 * @param timedP99Micros the 99th percentile of the timed part, in µs; NaN if untimed
	 * @param commitsPerCall writes the server committed per call; NaN if it cannot count them
	 * @param serverCpuMicrosPerCall the server's CPU per call, in µs; NaN if unknown
	 * @param clientCpuMicrosPerCall this JVM's CPU per call (the client, and anything else the
	 * JVM runs meanwhile: its garbage collector, its JIT), in µs
	 * @param threadsCpuMicrosPerCall the CPU per call of this JVM's Java threads: the calling
	 * thread and the library's own threads (the other libraries' are idle meanwhile), without the
	 * garbage collector and the JIT, in µs; NaN if the JVM does not count per thread
	 * @param callerCpuMicrosPerCall the calling thread's CPU per call, in µs; NaN if unknown
	 * @param allocatedBytesPerCall the bytes this JVM's Java threads allocated per call; NaN if
	 * unknown
	 * @param timedP25Micros the 25th percentile of the timed part, in µs (the calls that met no
	 * wait for a core: what the path itself costs); NaN if untimed
	 */
	public record Figures(double perSecond, double requestsPerCall, long calls, double timedP50Micros,
			double timedP99Micros, double commitsPerCall, double serverCpuMicrosPerCall,
			double clientCpuMicrosPerCall, double threadsCpuMicrosPerCall, double callerCpuMicrosPerCall,
			double allocatedBytesPerCall, double timedP25Micros) {
	}

	/**
	 * One variant: its call and the counter of the server it calls.
	 * @param call the call
	 * @param counter the server's counter
	 */
	public record Variant(TimedCall call, RequestCounter counter) {
	}

	/** A call of one variant that times a part of itself. */
	@FunctionalInterface
	public interface TimedCall {

		/**
		 * Makes the call.
		 * @return the nanoseconds of the timed part, or a negative number if none was timed
		 * @throws Exception if it fails
		 */
		long run() throws Exception;

	}

	/** A call of one variant. */
	@FunctionalInterface
	public interface Call {

		/**
		 * Makes the call.
		 * @throws Exception if it fails
		 */
		void run() throws Exception;

	}

}
