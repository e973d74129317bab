package io.zklock.benchmarks.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.zklock.benchmarks.client.ZkClient;

/**
 * Opens and closes many sessions (or a peer's connections) at once, in parallel (a hundred
 * sessions one after the other take seconds to connect and longer to close).
 */
final class Sessions {

	private static final int PARALLELISM = 16;

	private Sessions() {
	}

	/**
	 * Connects {@code count} sessions.
	 * @param connectString the server
	 * @param count how many
	 * @return the connected sessions
	 * @throws Exception if one does not connect (the others are closed)
	 */
	static List<ZkClient> connect(String connectString, int count) throws Exception {
		return open(count, (index) -> ZkClient.connect(connectString));
	}

	/**
	 * Opens {@code count} clients, each with its own session or connection.
	 * @param count how many
	 * @param opener opens client number {@code index}
	 * @param <T> the kind of client
	 * @return the open clients, in index order
	 * @throws Exception if one does not open (the others are closed)
	 */
	static <T extends AutoCloseable> List<T> open(int count, Opener<T> opener) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLELISM, Math.max(1, count)));
		List<Future<T>> futures = new ArrayList<>();
		try {
			for (int i = 0; i < count; i++) {
				int index = i;
				futures.add(executor.submit(() -> opener.open(index)));
			}
			List<T> sessions = new ArrayList<>();
			Exception failure = null;
			for (Future<T> future : futures) {
				try {
					sessions.add(future.get());
				}
				catch (Exception ex) {
					failure = (failure != null) ? failure : ex;
				}
			}
			if (failure != null) {
				close(sessions);
				throw failure;
			}
			return sessions;
		}
		finally {
			executor.shutdown();
		}
	}

	/**
	 * Closes sessions in parallel and waits until all are closed.
	 * @param sessions the sessions
	 */
	static void close(List<? extends AutoCloseable> sessions) {
		if (sessions.isEmpty()) {
			return;
		}
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLELISM, sessions.size()));
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (AutoCloseable session : sessions) {
				futures.add(executor.submit(() -> {
					session.close();
					return null;
				}));
			}
			for (Future<?> future : futures) {
				try {
					future.get();
				}
				catch (Exception ex) {
					// closing is best effort; the server expires what is left
				}
			}
		}
		finally {
			executor.shutdown();
		}
	}

	/**
	 * Opens one client.
	 * @param <T> the kind of client
	 */
	@FunctionalInterface
	interface Opener<T> {

		/**
		 * Opens client number {@code index}.
		 * @param index from 0
		 * @return the open client
		 * @throws Exception if it cannot open
		 */
		T open(int index) throws Exception;

	}

}
