package io.zklock.benchmarks.jmh;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * The figures of one JMH sample-time result, in microseconds per call.
 *
 * @param benchmark the benchmark method's simple name, such as {@code "annotatedCall"}
 * @param library the {@code library} parameter, or {@code null} if the benchmark has none
 * @param maxWait the {@code maxWait} parameter, or {@code null} if the benchmark has none
 * @param meanMicros the mean time per call
 * @param p50Micros the median
 * @param p99Micros the 99th percentile
 * @param samples the number of samples
 */
public record SampledLatency(String benchmark, String library, String maxWait, double meanMicros, double p50Micros,
		double p99Micros, long samples) {

	/**
	 * Calls per second of one thread calling back to back.
	 * @return 1 / mean
	 */
	public double perSecond() {
		return 1_000_000 / this.meanMicros;
	}

	/**
	 * Converts JMH results of {@code SampleTime} benchmarks with microsecond output.
	 * @param results the results
	 * @return one entry per result
	 */
	public static List<SampledLatency> of(Collection<RunResult> results) {
		List<SampledLatency> figures = new ArrayList<>();
		for (RunResult result : results) {
			String benchmark = result.getParams().getBenchmark();
			String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
			Statistics statistics = result.getPrimaryResult().getStatistics();
			figures.add(new SampledLatency(method, result.getParams().getParam("library"),
					result.getParams().getParam("maxWait"), statistics.getMean(),
					statistics.getPercentile(50), statistics.getPercentile(99), statistics.getN()));
		}
		return figures;
	}

	/**
	 * Finds one benchmark's figures.
	 * @param figures the figures of a run
	 * @param benchmark the method name
	 * @param library the library parameter, or {@code null} for any
	 * @param wait the wait parameter, or {@code null} for any
	 * @return the figures
	 * @throws IllegalStateException if the run has none such
	 */
	public static SampledLatency find(List<SampledLatency> figures, String benchmark, String library, String wait) {
		for (SampledLatency figure : figures) {
			if (figure.benchmark().equals(benchmark) && (library == null || library.equals(figure.library()))
					&& (wait == null || wait.equals(figure.maxWait()))) {
				return figure;
			}
		}
		throw new IllegalStateException("JMH produced no result for " + benchmark + " [library=" + library + ", maxWait="
				+ wait + "]; results: " + figures);
	}

}
