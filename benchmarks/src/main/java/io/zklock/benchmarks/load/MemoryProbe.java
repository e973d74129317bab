package io.zklock.benchmarks.load;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.lock.LockMode;

/**
 * Scenario 7's probe, run in a JVM of its own so that nothing else lives on its heap: connects
 * one client, holds N locks on distinct lock paths at once, and prints one line
 * {@code MEMORY key=value …} with the used heap (after full GCs) and the live threads before
 * connecting, connected, and while holding.
 */
public final class MemoryProbe {

	/** The prefix of the probe's result line. */
	public static final String PREFIX = "MEMORY ";

	private MemoryProbe() {
	}

	/**
	 * Runs the probe.
	 * @param args the library id, the connect string, the number of locks
	 * @throws Exception if the library fails
	 */
	public static void main(String[] args) throws Exception {
		Library library = Library.ofId(args[0]);
		String connectString = args[1];
		int count = Integer.parseInt(args[2]);
		int threadsWithoutClient = liveThreads();
		long heapWithoutClient = usedHeapAfterGc();
		try (ZkClient session = ZkClient.connect(connectString);
				LockClient locks = library.open(session, "/bench/memory")) {
			// load the classes of a whole cycle before the baseline
			locks.lock("warm-up", LockMode.EXCLUSIVE).unlock();
			int threadsConnected = liveThreads();
			long heapConnected = usedHeapAfterGc();
			List<LockClient.Held> held = new ArrayList<>(count);
			long start = System.nanoTime();
			for (int i = 0; i < count; i++) {
				held.add(locks.lock("held-" + i, LockMode.EXCLUSIVE));
			}
			double acquireSeconds = (System.nanoTime() - start) / 1e9;
			int threadsHolding = liveThreads();
			long heapHolding = usedHeapAfterGc();
			for (LockClient.Held lock : held) {
				lock.unlock();
			}
			System.out.println(String.format(Locale.ROOT,
					PREFIX + "threadsWithoutClient=%d threadsConnected=%d threadsHolding=%d heapWithoutClient=%d "
							+ "heapConnected=%d heapHolding=%d acquireSeconds=%.3f",
					threadsWithoutClient, threadsConnected, threadsHolding, heapWithoutClient, heapConnected,
					heapHolding, acquireSeconds));
		}
	}

	private static int liveThreads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

	private static long usedHeapAfterGc() throws InterruptedException {
		for (int i = 0; i < 4; i++) {
			System.gc();
			Thread.sleep(50);
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
