package io.zklock.benchmarks.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.zookeeper.CreateMode;

import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.server.ZooKeeperServer;

/**
 * The write rate of a ZooKeeper server or ensemble with no lock at all: sessions × threads, each
 * thread writing ({@code setData}) its own node in a loop. A lock cycle is two writes, so lock
 * cycles across all keys stop near half of this.
 */
final class WriteCeiling {

	private WriteCeiling() {
	}

	/**
	 * Measures the write rate.
	 * @param server the server
	 * @param clients the sessions, spread as a load's clients are
	 * @param threads the threads per session
	 * @param warmup how long the threads write before the window
	 * @param window the measured window
	 * @return writes per second in the window
	 * @throws Exception if a session or write fails
	 */
	static double writesPerSecond(ZooKeeperServer server, int clients, int threads, Duration warmup, Duration window)
			throws Exception {
		List<ZkClient> sessions = new ArrayList<>();
		try {
			for (int i = 0; i < clients; i++) {
				sessions.add(ZkClient.connect(server.connectString(i)));
			}
			AtomicLong writes = new AtomicLong();
			ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
			long start = System.nanoTime() + warmup.toNanos();
			long end = start + window.toNanos();
			CountDownLatch done = new CountDownLatch(clients * threads);
			for (ZkClient session : sessions) {
				for (int t = 0; t < threads; t++) {
					Thread thread = new Thread(() -> {
						try {
							String node = session.curator().create().creatingParentsIfNeeded()
								.withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath("/bench/write-ceiling/w-");
							long now;
							while ((now = System.nanoTime()) - end < 0) {
								session.curator().setData().forPath(node, new byte[16]);
								if (now - start >= 0) {
									writes.incrementAndGet();
								}
							}
						}
						catch (Throwable ex) {
							failures.add(ex);
						}
						finally {
							done.countDown();
						}
					}, "write-ceiling");
					thread.setDaemon(true);
					thread.start();
				}
			}
			done.await();
			if (!failures.isEmpty()) {
				throw new IllegalStateException("A writer failed", failures.peek());
			}
			return writes.get() / (window.toNanos() / 1e9);
		}
		finally {
			sessions.forEach(ZkClient::close);
		}
	}

}
