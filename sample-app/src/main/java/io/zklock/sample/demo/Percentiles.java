package io.zklock.sample.demo;

import java.util.Arrays;

/**
 * Nearest-rank percentiles of a set of measurements.
 */
final class Percentiles {

	private final long[] sorted;

	private Percentiles(long[] sorted) {
		this.sorted = sorted;
	}

	/**
	 * Percentiles over the given values.
	 * @param values the measurements, in any order (not modified)
	 * @return the percentiles
	 */
	static Percentiles of(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return new Percentiles(sorted);
	}

	/**
	 * The smallest value that at least {@code percentile} percent of the values do not
	 * exceed.
	 * @param percentile between 0 (exclusive) and 100 (inclusive)
	 * @return the value, or {@code 0} if there are no values
	 */
	long get(double percentile) {
		if (percentile <= 0 || percentile > 100) {
			throw new IllegalArgumentException("Percentile must be in (0, 100], was " + percentile);
		}
		if (this.sorted.length == 0) {
			return 0;
		}
		int rank = (int) Math.ceil(percentile / 100 * this.sorted.length);
		return this.sorted[Math.max(rank, 1) - 1];
	}

	/**
	 * How many values there are.
	 * @return the count
	 */
	int count() {
		return this.sorted.length;
	}

}
