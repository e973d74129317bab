package io.zklock.benchmarks.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.zookeeper.KeeperException;

import io.zklock.benchmarks.client.ZkClient;

/**
 * Samples how many lock nodes a lock path has, every few milliseconds, on its own session,
 * and counts its own requests so the run can take them out of the server's count.
 */
final class LockNodeObserver implements AutoCloseable {

	private static final long INTERVAL_MILLIS = 5;

	private final ZkClient client;

	private final String zooKeeperPath;

	private final Thread thread;

	private final AtomicInteger peak = new AtomicInteger();

	private final AtomicInteger requests = new AtomicInteger();

	private volatile boolean running = true;

	private volatile Exception failure;

	LockNodeObserver(ZkClient client, String zooKeeperPath) {
		this.client = client;
		this.zooKeeperPath = zooKeeperPath;
		this.thread = new Thread(this::observe, "lock-node-observer");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void observe() {
		while (this.running) {
			try {
				this.requests.incrementAndGet();
				int nodes = this.client.curator().getChildren().forPath(this.zooKeeperPath).size();
				this.peak.accumulateAndGet(nodes, Math::max);
			}
			catch (KeeperException.NoNodeException ex) {
				// nobody holds or waits right now
			}
			catch (Exception ex) {
				this.failure = ex;
				return;
			}
			try {
				TimeUnit.MILLISECONDS.sleep(INTERVAL_MILLIS);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	/**
	 * Stops sampling; the counts are final afterwards.
	 * @throws IllegalStateException if sampling failed
	 */
	@Override
	public void close() {
		this.running = false;
		try {
			this.thread.join(TimeUnit.SECONDS.toMillis(30));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (this.failure != null) {
			throw new IllegalStateException("Sampling the lock nodes of " + this.zooKeeperPath + " failed", this.failure);
		}
	}

	/**
	 * The most lock nodes seen at once.
	 * @return the peak
	 */
	int peak() {
		return this.peak.get();
	}

	/**
	 * The requests the observer sent.
	 * @return its request count
	 */
	int requests() {
		return this.requests.get();
	}

}
