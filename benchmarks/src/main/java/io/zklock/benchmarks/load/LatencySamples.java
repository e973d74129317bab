package io.zklock.benchmarks.load;

import java.util.Arrays;

/**
 * Times of one kind (the acquire of a cycle, say), in nanoseconds, as one thread records them.
 * Not thread-safe: each thread records its own, and they are merged at the end.
 */
public final class LatencySamples {

	private long[] nanos = new long[1024];

	private int size;

	/**
	 * Records a time; a negative one (nothing timed) is ignored.
	 * @param sample nanoseconds
	 */
	public void add(long sample) {
		if (sample < 0) {
			return;
		}
		if (this.size == this.nanos.length) {
			this.nanos = Arrays.copyOf(this.nanos, this.size * 2);
		}
		this.nanos[this.size++] = sample;
	}

	/**
	 * Records every time of another record.
	 * @param other the other record
	 */
	public void addAll(LatencySamples other) {
		for (int i = 0; i < other.size; i++) {
			add(other.nanos[i]);
		}
	}

	/**
	 * The times recorded, sorted.
	 * @return nanoseconds, ascending
	 */
	public long[] sorted() {
		long[] sorted = Arrays.copyOf(this.nanos, this.size);
		Arrays.sort(sorted);
		return sorted;
	}

	/**
	 * A percentile (nearest rank) of the times.
	 * @param percentile from 0 to 100
	 * @return microseconds, or NaN without samples
	 */
	public double percentileMicros(double percentile) {
		return HandoffGaps.percentileMicros(sorted(), percentile);
	}

}
