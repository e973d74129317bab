package io.zklock.benchmarks.report;

/**
 * Which way a metric improves, so that a report can say where zklock is behind a peer.
 */
public enum Better {

	/** More is better, such as operations per second. */
	HIGHER,

	/** Less is better, such as latency or requests per cycle. */
	LOWER,

	/** Neither: a fact, not a score (such as a count that must equal a floor). */
	NEITHER

}
