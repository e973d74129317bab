package io.zklock.benchmarks.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.benchmarks.server.ZooKeeperServer;
import io.zklock.lock.LockMode;

/**
 * The load driver for the contended scenarios: clients × threads loop acquire → release on
 * one lock path. The threads warm up, stop at a barrier while the server's counters are read,
 * run the measured window, and stop at a barrier again, so that the counters cover exactly
 * the cycles counted.
 */
public final class ContendedLoad {

	private static final long BARRIER_TIMEOUT_SECONDS = 120;

	private final ZooKeeperServer server;

	private final String root;

	private final boolean remoteProbe;

	/**
	 * Creates a driver.
	 * @param server the server to run against
	 * @param root the ZooKeeper path under which the libraries' lock roots are made
	 */
	public ContendedLoad(ZooKeeperServer server, String root) {
		this(server, root, false);
	}

	/**
	 * Creates a driver.
	 * @param server the server to run against
	 * @param root the ZooKeeper path under which the libraries' lock roots are made
	 * @param remoteProbe whether one more client (its own session, one thread) acquires the lock
	 * every few milliseconds during the window, its waits measured: the remote waiter under the
	 * load's contention ({@link LoadOutcome#remoteWaits()}); its cycles count as operations
	 */
	public ContendedLoad(ZooKeeperServer server, String root, boolean remoteProbe) {
		this.server = server;
		this.root = root;
		this.remoteProbe = remoteProbe;
	}

	/**
	 * Runs one library under one load.
	 * @param library the library
	 * @param spec the load
	 * @return what the window measured
	 * @throws Exception if a client fails, the lock let two holders in, or the run hangs
	 */
	public LoadOutcome run(Library library, LoadSpec spec) throws Exception {
		List<ZkClient> sessions = Sessions.connect(this.server.connectString(),
				spec.clients() + (spec.observeLockNodes() ? 1 : 0) + (this.remoteProbe ? 1 : 0));
		List<LockClient> clients = new ArrayList<>();
		LockClient probe = null;
		try {
			for (ZkClient session : sessions.subList(0, spec.clients())) {
				clients.add(library.open(session, this.root));
			}
			ZkClient observerSession = spec.observeLockNodes() ? sessions.get(spec.clients()) : null;
			probe = this.remoteProbe ? library.open(sessions.get(sessions.size() - 1), this.root) : null;
			return measure(spec, clients, observerSession, probe);
		}
		finally {
			if (probe != null) {
				probe.close();
			}
			clients.forEach(LockClient::close);
			Sessions.close(sessions);
		}
	}

	private LoadOutcome measure(LoadSpec spec, List<LockClient> clients, ZkClient observerSession, LockClient probe)
			throws Exception {
		Phaser phaser = new Phaser(1);
		Window window = new Window();
		ExclusionCheck exclusion = new ExclusionCheck();
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		AtomicLong operations = new AtomicLong();
		AtomicLong writes = new AtomicLong();
		HandoffGaps[] gaps = { new HandoffGaps() };
		List<Thread> threads = new ArrayList<>();
		window.deadline = System.nanoTime() + spec.warmup().toNanos();
		for (LockClient client : clients) {
			for (int t = 0; t < spec.threadsPerClient(); t++) {
				phaser.register();
				Thread thread = new Thread(() -> loop(client, spec, phaser, window, exclusion, failures, operations,
						writes, gaps), "load-" + client.library().id() + "-" + threads.size());
				thread.setDaemon(true);
				threads.add(thread);
			}
		}
		threads.forEach(Thread::start);
		ServerCounters counters = this.server.counters();
		// warm-up ends: every thread stops at the barrier, then the counters are read
		await(phaser, failures);
		ServerCounters.Mntr before = counters.mntr();
		operations.set(0);
		writes.set(0);
		gaps[0] = new HandoffGaps();
		window.deadline = System.nanoTime() + spec.measure().toNanos();
		LockNodeObserver observer = (observerSession != null)
				? new LockNodeObserver(observerSession, clients.get(0).zooKeeperPath(spec.lockPath())) : null;
		long start = System.nanoTime();
		await(phaser, failures);
		RemoteProbe remote = (probe != null) ? RemoteProbe.start(probe, spec.lockPath(), exclusion, failures) : null;
		// the window: every thread runs until the deadline, finishes its cycle, and stops
		await(phaser, failures);
		long elapsed = System.nanoTime() - start;
		List<Long> remoteWaits = (remote != null) ? remote.stop() : List.of();
		operations.addAndGet(remoteWaits.size());
		int observerRequests = 0;
		int peak = -1;
		if (observer != null) {
			observer.close();
			observerRequests = observer.requests();
			peak = observer.peak();
		}
		ServerCounters.Mntr after = counters.mntr();
		await(phaser, failures);
		for (Thread thread : threads) {
			thread.join(TimeUnit.SECONDS.toMillis(30));
		}
		if (!failures.isEmpty()) {
			throw failure(failures);
		}
		if (exclusion.violations() > 0) {
			throw new IllegalStateException(clients.get(0).library().displayName() + " let a second holder in "
					+ exclusion.violations() + " times on '" + spec.lockPath() + "'");
		}
		if (operations.get() == 0) {
			throw new IllegalStateException("No lock was acquired in the measured window");
		}
		return new LoadOutcome(operations.get(), writes.get(), elapsed / 1e9,
				after.packetsSince(before) - observerRequests, after.watchersTriggeredSince(before), peak,
				spec.readWrite() ? new long[0] : gaps[0].sorted(), remoteWaits);
	}

	private static void loop(LockClient client, LoadSpec spec, Phaser phaser, Window window, ExclusionCheck exclusion,
			ConcurrentLinkedQueue<Throwable> failures, AtomicLong operations, AtomicLong writes, HandoffGaps[] gaps) {
		try {
			// warm-up
			cycles(client, spec, window, exclusion, null, null, new HandoffGaps());
			phaser.arriveAndAwaitAdvance();
			// counters are read; wait for the start signal
			phaser.arriveAndAwaitAdvance();
			cycles(client, spec, window, exclusion, operations, writes, gaps[0]);
			phaser.arriveAndAwaitAdvance();
			// counters are read again; leave
			phaser.arriveAndDeregister();
		}
		catch (Throwable ex) {
			failures.add(ex);
			phaser.arriveAndDeregister();
		}
	}

	private static void cycles(LockClient client, LoadSpec spec, Window window, ExclusionCheck exclusion,
			AtomicLong operations, AtomicLong writes, HandoffGaps gaps) throws Exception {
		long deadline = window.deadline;
		while (System.nanoTime() - deadline < 0) {
			LockMode mode = mode(spec);
			LockClient.Held held = client.lock(spec.lockPath(), mode);
			if (mode != LockMode.READ) {
				gaps.granted();
			}
			exclusion.enter(mode);
			exclusion.exit(mode);
			if (mode != LockMode.READ) {
				gaps.releasing();
			}
			held.unlock();
			if (operations != null) {
				operations.incrementAndGet();
				if (mode != LockMode.READ) {
					writes.incrementAndGet();
				}
			}
		}
	}

	private static LockMode mode(LoadSpec spec) {
		if (!spec.readWrite()) {
			return LockMode.EXCLUSIVE;
		}
		return (ThreadLocalRandom.current().nextDouble() < spec.writeShare()) ? LockMode.WRITE : LockMode.READ;
	}

	private static void await(Phaser phaser, ConcurrentLinkedQueue<Throwable> failures) throws Exception {
		int phase = phaser.arrive();
		try {
			phaser.awaitAdvanceInterruptibly(phase, BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (TimeoutException ex) {
			IllegalStateException hang = new IllegalStateException(
					"The load threads did not reach the barrier within " + BARRIER_TIMEOUT_SECONDS + " s", ex);
			failures.forEach(hang::addSuppressed);
			throw hang;
		}
		if (!failures.isEmpty()) {
			throw failure(failures);
		}
	}

	private static Exception failure(ConcurrentLinkedQueue<Throwable> failures) {
		IllegalStateException failure = new IllegalStateException(
				failures.size() + " load thread(s) failed; the first: " + failures.peek(), failures.peek());
		return failure;
	}

	/** The current phase's deadline, shared by the driver and the threads. */
	private static final class Window {

		volatile long deadline;

	}

}
