package io.zklock.benchmarks.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.zklock.benchmarks.client.ZkClient;

/**
 * Opens and closes many sessions at once, in parallel (a hundred sessions one after the other
 * take seconds to connect and longer to close).
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
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLELISM, Math.max(1, count)));
		List<Future<ZkClient>> futures = new ArrayList<>();
		try {
			for (int i = 0; i < count; i++) {
				futures.add(executor.submit(() -> ZkClient.connect(connectString)));
			}
			List<ZkClient> sessions = new ArrayList<>();
			Exception failure = null;
			for (Future<ZkClient> future : futures) {
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
	static void close(List<ZkClient> sessions) {
		if (sessions.isEmpty()) {
			return;
		}
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLELISM, sessions.size()));
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (ZkClient session : sessions) {
				futures.add(executor.submit(session::close));
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

}
