package io.zklock.benchmarks.server;

/**
 * A server's own count of the requests (or commands) it received, and where it can say so, of
 * the watch events it fired, the writes it committed and the CPU time it used. Read before and
 * after a measured window; a figure a server cannot count is -1.
 */
@FunctionalInterface
public interface RequestCounter {

	/** A server that counts nothing. */
	RequestCounter NONE = () -> (before) -> -1;

	/**
	 * Reads the counters now.
	 * @return the reading
	 * @throws Exception if the server does not answer
	 */
	Reading read() throws Exception;

	/** One reading of a server's counters. */
	@FunctionalInterface
	interface Reading {

		/**
		 * Requests or commands received since an earlier reading, the reading's own taken out.
		 * @param before the earlier reading of the same counter
		 * @return the count, or -1 if the server cannot count them
		 */
		long requestsSince(Reading before);

		/**
		 * Watch events (or wake-ups) the server sent since an earlier reading.
		 * @param before the earlier reading
		 * @return the count, or -1 if the server cannot count them
		 */
		default long watchEventsSince(Reading before) {
			return -1;
		}

		/**
		 * Writes the server committed since an earlier reading (ZooKeeper transactions, Raft
		 * proposals).
		 * @param before the earlier reading
		 * @return the count, or -1 if the server cannot count them
		 */
		default long commitsSince(Reading before) {
			return -1;
		}

		/**
		 * CPU time the server's processes used since an earlier reading.
		 * @param before the earlier reading
		 * @return nanoseconds, or -1 if unknown (a server inside the benchmark JVM)
		 */
		default long serverCpuNanosSince(Reading before) {
			return -1;
		}

	}

}
