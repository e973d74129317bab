package io.zklock.benchmarks.load;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.zklock.benchmarks.client.LockClient;
import io.zklock.lock.LockMode;

/**
 * The remote waiter of a contended load: one more client (its own session) with one thread that
 * acquires the hot lock every 5 ms while the load runs and records how long each acquire waited.
 * With local handoff, this is the wait of another process behind a client's chain of handoffs.
 */
final class RemoteProbe {

	private static final long PAUSE_MILLIS = 5;

	private final List<Long> waits = new CopyOnWriteArrayList<>();

	private final Thread thread;

	private volatile boolean running = true;

	private RemoteProbe(LockClient client, String lockPath, ExclusionCheck exclusion,
			ConcurrentLinkedQueue<Throwable> failures) {
		this.thread = new Thread(() -> {
			try {
				while (this.running) {
					long start = System.nanoTime();
					LockClient.Held held = client.lock(lockPath, LockMode.EXCLUSIVE);
					long waited = System.nanoTime() - start;
					exclusion.enter(LockMode.EXCLUSIVE);
					exclusion.exit(LockMode.EXCLUSIVE);
					held.unlock();
					this.waits.add(waited);
					TimeUnit.MILLISECONDS.sleep(PAUSE_MILLIS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (Throwable ex) {
				failures.add(ex);
			}
		}, "load-remote-probe");
		this.thread.setDaemon(true);
	}

	static RemoteProbe start(LockClient client, String lockPath, ExclusionCheck exclusion,
			ConcurrentLinkedQueue<Throwable> failures) {
		RemoteProbe probe = new RemoteProbe(client, lockPath, exclusion, failures);
		probe.thread.start();
		return probe;
	}

	/** Stops after the current acquire; the waits recorded. */
	List<Long> stop() throws InterruptedException {
		this.running = false;
		this.thread.join(TimeUnit.SECONDS.toMillis(60));
		return List.copyOf(this.waits);
	}

}
