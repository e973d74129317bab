package io.zklock.benchmarks.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The time from the start of an exclusive release to the next exclusive grant, whoever gets
 * it: the critical path of a handoff (the release's write, its notification, whatever the next
 * holder does before it holds). Each release marks its start just before the library is asked to
 * release, each grant takes the time since the newest mark; only while the lock is exclusive does
 * a grant follow the release it measures from. Thread-safe.
 */
public final class HandoffGaps {

	private volatile long releaseStarted;

	private final List<Long> gapsNanos = new ArrayList<>();

	/**
	 * Creates an empty record of gaps.
	 */
	public HandoffGaps() {
	}

	/**
	 * An exclusive release starts now.
	 */
	public void releasing() {
		this.releaseStarted = System.nanoTime();
	}

	/**
	 * An exclusive grant returned now: records the time since the newest release's start, if any.
	 */
	public void granted() {
		long now = System.nanoTime();
		long started = this.releaseStarted;
		if (started != 0) {
			synchronized (this.gapsNanos) {
				this.gapsNanos.add(now - started);
			}
		}
	}

	/**
	 * The gaps recorded so far, in nanoseconds, sorted.
	 * @return the sorted gaps
	 */
	public long[] sorted() {
		long[] gaps;
		synchronized (this.gapsNanos) {
			gaps = this.gapsNanos.stream().mapToLong(Long::longValue).toArray();
		}
		Arrays.sort(gaps);
		return gaps;
	}

	/**
	 * A percentile of sorted gaps, in microseconds.
	 * @param sorted gaps in nanoseconds, sorted
	 * @param percentile from 0 to 100
	 * @return the percentile in microseconds, or {@code NaN} if there are none
	 */
	public static double percentileMicros(long[] sorted, double percentile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1_000.0;
	}

}
