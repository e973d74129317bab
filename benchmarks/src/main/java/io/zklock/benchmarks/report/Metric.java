package io.zklock.benchmarks.report;

/**
 * One row's measure in a {@link Comparison}.
 *
 * @param name what is measured, with its unit, such as {@code "handoffs/s"}
 * @param better which way it improves
 * @param decimals the decimals to print
 */
public record Metric(String name, Better better, int decimals) {

	/**
	 * A throughput: higher is better, no decimals.
	 * @param name the name with its unit
	 * @return the metric
	 */
	public static Metric throughput(String name) {
		return new Metric(name, Better.HIGHER, 0);
	}

	/**
	 * A cost (time, requests, bytes): lower is better.
	 * @param name the name with its unit
	 * @param decimals the decimals to print
	 * @return the metric
	 */
	public static Metric cost(String name, int decimals) {
		return new Metric(name, Better.LOWER, decimals);
	}

	/**
	 * A fact that is not a score.
	 * @param name the name with its unit
	 * @param decimals the decimals to print
	 * @return the metric
	 */
	public static Metric fact(String name, int decimals) {
		return new Metric(name, Better.NEITHER, decimals);
	}

}
