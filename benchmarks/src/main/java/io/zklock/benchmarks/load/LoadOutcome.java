package io.zklock.benchmarks.load;

import java.util.Arrays;
import java.util.List;

/**
 * What a contended load run measured in its window.
 *
 * @param operations lock acquisitions completed (each followed by its release): handoffs
 * @param writes of those, write or exclusive acquisitions
 * @param seconds the window's length, from the start signal until the last thread stopped
 * @param requests requests the server received in the window (its {@code zk_packets_received}),
 * the lock-node observer's own requests taken out
 * @param watchEvents watchers the server triggered in the window
 * @param peakLockNodes the most lock nodes seen under the lock path at once, or -1 if not observed
 * @param handoffGapsNanos the times from the start of an exclusive release to the next exclusive
 * grant ({@link HandoffGaps}), in nanoseconds, sorted; empty for read/write loads
 * @param remoteWaits the waits of the remote probe (one more client, one thread, acquiring now and
 * then against the load), in nanoseconds; empty without a probe
 */
public record LoadOutcome(long operations, long writes, double seconds, long requests, long watchEvents,
		int peakLockNodes, long[] handoffGapsNanos, List<Long> remoteWaits) {

	/**
	 * A percentile of the remote probe's waits.
	 * @param percentile such as 0.99
	 * @return the wait in milliseconds, or NaN without a probe
	 */
	public double remoteWaitMillis(double percentile) {
		if (this.remoteWaits.isEmpty()) {
			return Double.NaN;
		}
		List<Long> sorted = this.remoteWaits.stream().sorted().toList();
		int index = (int) Math.min(sorted.size() - 1, Math.ceil(percentile * sorted.size()) - 1);
		return sorted.get(Math.max(0, index)) / 1e6;
	}

	/**
	 * The outcome of two windows together, as if they were one.
	 * @param other the other window
	 * @return the sums (the peak is the higher one)
	 */
	public LoadOutcome plus(LoadOutcome other) {
		long[] gaps = java.util.stream.LongStream
			.concat(Arrays.stream(this.handoffGapsNanos), Arrays.stream(other.handoffGapsNanos))
			.sorted()
			.toArray();
		return new LoadOutcome(this.operations + other.operations, this.writes + other.writes,
				this.seconds + other.seconds, this.requests + other.requests, this.watchEvents + other.watchEvents,
				Math.max(this.peakLockNodes, other.peakLockNodes), gaps,
				java.util.stream.Stream.concat(this.remoteWaits.stream(), other.remoteWaits.stream()).toList());
	}

	/**
	 * Operations (handoffs) per second.
	 * @return the throughput
	 */
	public double perSecond() {
		return this.operations / this.seconds;
	}

	/**
	 * Requests per operation.
	 * @return the server requests per handoff
	 */
	public double requestsPerOperation() {
		return (double) this.requests / this.operations;
	}

	/**
	 * A percentile of the time from the start of a release to the next grant.
	 * @param percentile from 0 to 100
	 * @return microseconds, or {@code NaN} if none was recorded
	 */
	public double handoffGapMicros(double percentile) {
		return HandoffGaps.percentileMicros(this.handoffGapsNanos, percentile);
	}

	/**
	 * Watch events per release.
	 * @return watchers triggered per operation
	 */
	public double watchEventsPerRelease() {
		return (double) this.watchEvents / this.operations;
	}

}
