package io.zklock.benchmarks.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.zookeeper.KeeperException;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.server.ProcessCpu;
import io.zklock.benchmarks.server.RequestCounter;
import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.benchmarks.server.ZooKeeperServer;
import io.zklock.lock.LockMode;

/**
 * The load driver for the contended scenarios: clients × threads loop acquire → release on
 * one lock path (or on keys under it). The threads warm up, stop at a barrier while the server's
 * counters are read, run the measured window, and stop at a barrier again, so that the counters
 * cover exactly the cycles counted. On ZooKeeper it then looks at what the run left: lock nodes
 * under a one-key load's path and watches on the server (but for the one on
 * {@code /zookeeper/config} every Curator client keeps), while the sessions are still open.
 */
public final class ContendedLoad {

	private static final long BARRIER_TIMEOUT_SECONDS = 120;

	/** How long an asynchronous watch removal after the last release may take to reach the server. */
	private static final long LEFTOVER_WAIT_MILLIS = 2000;

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
	 * @param server the ZooKeeper server the libraries run against ({@code null} if only
	 * {@link #run(Contender, LoadSpec)} is used)
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
	 * Runs one ZooKeeper library under one load.
	 * @param library the library
	 * @param spec the load
	 * @return what the window measured
	 * @throws Exception if a client fails, the lock let two holders in, or the run hangs
	 */
	public LoadOutcome run(Library library, LoadSpec spec) throws Exception {
		return run(Contender.of(this.server, library, this.root), spec);
	}

	/**
	 * Runs one contender under one load.
	 * @param contender the lock and its server
	 * @param spec the load
	 * @return what the window measured
	 * @throws Exception if a client fails, the lock let two holders in, or the run hangs
	 */
	public LoadOutcome run(Contender contender, LoadSpec spec) throws Exception {
		List<LockClient> clients = Sessions.open(spec.clients() + (this.remoteProbe ? 1 : 0), contender::open);
		ZkClient observerSession = null;
		try {
			ZooKeeperServer zooKeeper = contender.zooKeeper();
			observerSession = (zooKeeper != null) ? ZkClient.connect(zooKeeper.connectString(0)) : null;
			LockClient probe = this.remoteProbe ? clients.get(clients.size() - 1) : null;
			return measure(contender, spec, clients.subList(0, spec.clients()), observerSession, probe);
		}
		finally {
			if (observerSession != null) {
				observerSession.close();
			}
			Sessions.close(clients);
		}
	}

	private LoadOutcome measure(Contender contender, LoadSpec spec, List<LockClient> clients, ZkClient observerSession,
			LockClient probe) throws Exception {
		Phaser phaser = new Phaser(1);
		Window window = new Window();
		ExclusionCheck exclusion = new ExclusionCheck(spec.keys());
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		AtomicLong operations = new AtomicLong();
		AtomicLong writes = new AtomicLong();
		HandoffGaps[] gaps = { new HandoffGaps() };
		ConcurrentLinkedQueue<LatencySamples> acquires = new ConcurrentLinkedQueue<>();
		List<Thread> threads = new ArrayList<>();
		window.deadline = System.nanoTime() + spec.warmup().toNanos();
		for (LockClient client : clients) {
			for (int t = 0; t < spec.threadsPerClient(); t++) {
				phaser.register();
				LatencySamples samples = new LatencySamples();
				acquires.add(samples);
				Thread thread = new Thread(() -> loop(client, spec, phaser, window, exclusion, failures, operations,
						writes, gaps, samples), "load-" + threads.size());
				thread.setDaemon(true);
				threads.add(thread);
			}
		}
		threads.forEach(Thread::start);
		RequestCounter counters = contender.counter();
		// warm-up ends: every thread stops at the barrier, then the counters are read
		await(phaser, failures);
		RequestCounter.Reading before = counters.read();
		long clientCpuBefore = ProcessCpu.self();
		operations.set(0);
		writes.set(0);
		gaps[0] = new HandoffGaps();
		window.deadline = System.nanoTime() + spec.measure().toNanos();
		LockNodeObserver observer = (spec.observeLockNodes() && observerSession != null)
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
		RequestCounter.Reading after = counters.read();
		long clientCpu = (clientCpuBefore < 0) ? -1 : ProcessCpu.self() - clientCpuBefore;
		int nodesLeft = -1;
		long watchesLeft = -1;
		if (observerSession != null) {
			// every thread has released and waits at the barrier; its session is still open
			nodesLeft = (spec.keys() == 1) ? nodesLeft(observerSession, clients.get(0).zooKeeperPath(spec.lockPath()))
					: -1;
			watchesLeft = watchesLeft(contender.zooKeeper());
		}
		await(phaser, failures);
		for (Thread thread : threads) {
			thread.join(TimeUnit.SECONDS.toMillis(30));
		}
		if (!failures.isEmpty()) {
			throw failure(failures);
		}
		if (exclusion.violations() > 0) {
			throw new IllegalStateException(contender.displayName() + " let a second holder in "
					+ exclusion.violations() + " times on '" + spec.lockPath() + "'");
		}
		if (operations.get() == 0) {
			throw new IllegalStateException("No lock was acquired in the measured window");
		}
		LatencySamples acquired = new LatencySamples();
		acquires.forEach(acquired::addAll);
		long requests = after.requestsSince(before);
		return new LoadOutcome(operations.get(), writes.get(), elapsed / 1e9,
				(requests < 0) ? -1 : requests - observerRequests, after.watchEventsSince(before), peak,
				(spec.readWrite() || spec.keys() > 1) ? new long[0] : gaps[0].sorted(), remoteWaits, acquired.sorted(),
				after.commitsSince(before), after.serverCpuNanosSince(before), clientCpu, nodesLeft, watchesLeft);
	}

	private static int nodesLeft(ZkClient session, String zooKeeperPath) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEFTOVER_WAIT_MILLIS);
		int nodes;
		do {
			try {
				nodes = session.curator().getChildren().forPath(zooKeeperPath).size();
			}
			catch (KeeperException.NoNodeException ex) {
				nodes = 0;
			}
			if (nodes == 0) {
				return 0;
			}
			Thread.sleep(20);
		}
		while (System.nanoTime() - deadline < 0);
		return nodes;
	}

	private static long watchesLeft(ZooKeeperServer zooKeeper) throws Exception {
		ServerCounters counters = zooKeeper.counters();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEFTOVER_WAIT_MILLIS);
		long watches;
		do {
			watches = counters.watchesBesideCurators();
			if (watches == 0) {
				return 0;
			}
			Thread.sleep(20);
		}
		while (System.nanoTime() - deadline < 0);
		return watches;
	}

	private static void loop(LockClient client, LoadSpec spec, Phaser phaser, Window window, ExclusionCheck exclusion,
			ConcurrentLinkedQueue<Throwable> failures, AtomicLong operations, AtomicLong writes, HandoffGaps[] gaps,
			LatencySamples acquires) {
		try {
			// warm-up
			cycles(client, spec, window, exclusion, null, null, new HandoffGaps(), new LatencySamples());
			phaser.arriveAndAwaitAdvance();
			// counters are read; wait for the start signal
			phaser.arriveAndAwaitAdvance();
			cycles(client, spec, window, exclusion, operations, writes, gaps[0], acquires);
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
			AtomicLong operations, AtomicLong writes, HandoffGaps gaps, LatencySamples acquires) throws Exception {
		long deadline = window.deadline;
		while (System.nanoTime() - deadline < 0) {
			LockMode mode = mode(spec);
			int key = (spec.keys() == 1) ? 0 : ThreadLocalRandom.current().nextInt(spec.keys());
			long asked = System.nanoTime();
			LockClient.Held held = client.lock(spec.lockPath(key), mode);
			acquires.add(System.nanoTime() - asked);
			if (mode != LockMode.READ) {
				gaps.granted();
			}
			exclusion.enter(key, mode);
			exclusion.exit(key, mode);
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
