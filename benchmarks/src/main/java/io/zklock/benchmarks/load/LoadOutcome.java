package io.zklock.benchmarks.load;

import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * What a contended load run measured in its window.
 *
 * @param operations lock acquisitions completed (each followed by its release): handoffs
 * @param writes of those, write or exclusive acquisitions
 * @param seconds the window's length, from the start signal until the last thread stopped
 * @param requests requests (or commands) the server received in the window (ZooKeeper's
 * {@code zk_packets_received}, the lock-node observer's own requests taken out), or -1 if the
 * server cannot count them
 * @param watchEvents watchers the server triggered in the window, or -1 if it cannot count them
 * @param peakLockNodes the most lock nodes seen under the lock path at once, or -1 if not observed
 * @param handoffGapsNanos the times from the start of an exclusive release to the next exclusive
 * grant ({@link HandoffGaps}), in nanoseconds, sorted; empty for read/write and many-key loads
 * @param remoteWaits the waits of the remote probe (one more client, one thread, acquiring now and
 * then against the load), in nanoseconds; empty without a probe
 * @param acquireNanos the time of every acquire of the window, from the call until it returned
 * holding the lock, in nanoseconds, sorted
 * @param commits writes the server committed in the window (ZooKeeper transactions, etcd's Raft
 * proposals), or -1 if it cannot count them
 * @param serverCpuNanos CPU time of the server's processes in the window, or -1 if unknown
 * @param clientCpuNanos CPU time of the driver JVM (the clients) in the window, or -1 if unknown
 * @param nodesLeft lock nodes under a one-key load's lock path once every thread had released,
 * or -1 if not looked at (a peer not on ZooKeeper, a many-key load)
 * @param watchesLeft watches registered on the ZooKeeper server once every thread had released
 * (but for Curator's own on {@code /zookeeper/config}), or -1 if not looked at
 */
public record LoadOutcome(long operations, long writes, double seconds, long requests, long watchEvents,
		int peakLockNodes, long[] handoffGapsNanos, List<Long> remoteWaits, long[] acquireNanos, long commits,
		long serverCpuNanos, long clientCpuNanos, int nodesLeft, long watchesLeft) {

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
	 * @return the sums (the peaks and leftovers are the higher ones; a count one window could not
	 * make is unknown for both)
	 */
	public LoadOutcome plus(LoadOutcome other) {
		return new LoadOutcome(this.operations + other.operations, this.writes + other.writes,
				this.seconds + other.seconds, known(this.requests, other.requests),
				known(this.watchEvents, other.watchEvents), Math.max(this.peakLockNodes, other.peakLockNodes),
				merged(this.handoffGapsNanos, other.handoffGapsNanos),
				Stream.concat(this.remoteWaits.stream(), other.remoteWaits.stream()).toList(),
				merged(this.acquireNanos, other.acquireNanos), known(this.commits, other.commits),
				known(this.serverCpuNanos, other.serverCpuNanos), known(this.clientCpuNanos, other.clientCpuNanos),
				Math.max(this.nodesLeft, other.nodesLeft), Math.max(this.watchesLeft, other.watchesLeft));
	}

	private static long known(long a, long b) {
		return (a < 0 || b < 0) ? -1 : a + b;
	}

	private static long[] merged(long[] a, long[] b) {
		return LongStream.concat(Arrays.stream(a), Arrays.stream(b)).sorted().toArray();
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
	 * @return the server requests per handoff, or NaN if the server cannot count them
	 */
	public double requestsPerOperation() {
		return perOperation(this.requests);
	}

	/**
	 * Writes committed per operation.
	 * @return the server's commits per handoff, or NaN if it cannot count them
	 */
	public double commitsPerOperation() {
		return perOperation(this.commits);
	}

	/**
	 * Server CPU per operation.
	 * @return microseconds of server CPU per handoff, or NaN if unknown
	 */
	public double serverCpuMicrosPerOperation() {
		return perOperation(this.serverCpuNanos) / 1e3;
	}

	/**
	 * Client (driver JVM) CPU per operation.
	 * @return microseconds of client CPU per handoff, or NaN if unknown
	 */
	public double clientCpuMicrosPerOperation() {
		return perOperation(this.clientCpuNanos) / 1e3;
	}

	private double perOperation(long count) {
		return (count < 0) ? Double.NaN : (double) count / this.operations;
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
	 * A percentile of the acquire times.
	 * @param percentile from 0 to 100
	 * @return microseconds, or {@code NaN} if none was recorded
	 */
	public double acquireMicros(double percentile) {
		return HandoffGaps.percentileMicros(this.acquireNanos, percentile);
	}

	/**
	 * Watch events per release.
	 * @return watchers triggered per operation, or NaN if the server cannot count them
	 */
	public double watchEventsPerRelease() {
		return perOperation(this.watchEvents);
	}

}
