package io.zklock.vthreads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.server.command.FourLetterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 10,000 virtual threads take and release zklock's locks on a few hot lock paths, through two
 * Curator clients, on a real (in-process) ZooKeeper server: every acquire completes, the locks
 * exclude, nothing is left behind (no lock node, hold or watch), and JFR records no virtual
 * thread pinned to its carrier ({@code jdk.VirtualThreadPinned}, threshold 0). Most threads take
 * call-owned handles ({@code tryAcquire} with a generous wait); every tenth takes a thread-owned
 * hold ({@code acquireDistributedLock} / {@code releaseDistributedLock}). The figures (wall time,
 * throughput, pinned and monitor events by origin, peak carrier threads) are printed.
 *
 * <p>
 * Runs on a JDK 21+ only: in the reactor with the profile {@code virtual-threads}, which
 * compiles and runs this module with Temurin 25 (see this module's pom).
 */
class VirtualThreadLockTests {

	private static final int THREADS = Integer.getInteger("zklock.vthreads.threads", 10_000);

	private static final int PATHS = 8;

	private static final int CLIENTS = 2;

	/** Every this many threads takes a thread-owned hold. */
	private static final int THREAD_OWNED_EVERY = 10;

	private static final Duration WAIT = Duration.ofMinutes(3);

	private static final String NAMESPACE = "zklock";

	private static final String ROOT = "/locks";

	static {
		// mntr is refused unless whitelisted; the whitelist is read once per JVM
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		FourLetterCommands.resetWhiteList();
		// no fsync of the transaction log: on this kind of virtual disk one takes 10-20 ms, so every
		// handoff would wait for the disk, not for the locks (the benchmarks' servers run so too)
		System.setProperty("zookeeper.forceSync", "no");
	}

	private TestingServer server;

	private final List<CuratorFramework> clients = new ArrayList<>();

	private final List<ExecutorService> safeServices = new ArrayList<>();

	private final List<LockEngine> engines = new ArrayList<>();

	private final List<ExclusiveLockByCurator> locks = new ArrayList<>();

	@BeforeEach
	void start() throws Exception {
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
				Map.of("4lw.commands.whitelist", "*", "maxClientCnxns", "0"));
		this.server = new TestingServer(spec, true);
		for (int i = 0; i < CLIENTS; i++) {
			// Curator 5.9.0 leaks its SafeNotifyService thread on close: bring our own
			ExecutorService safeService = Executors.newSingleThreadExecutor(
					Thread.ofPlatform().daemon().name("curator-safe-notify-" + i).factory());
			this.safeServices.add(safeService);
			CuratorFramework client = CuratorFrameworkFactory.builder()
				.connectString(this.server.getConnectString())
				.namespace(NAMESPACE)
				.sessionTimeoutMs(60_000)
				.connectionTimeoutMs(15_000)
				.retryPolicy(new ExponentialBackoffRetry(100, 3))
				// no /zookeeper/config watch: the server's watch count is then the locks' alone
				.ensembleTracker(false)
				.runSafeService(safeService)
				.build();
			client.start();
			assertThat(client.blockUntilConnected(15, TimeUnit.SECONDS)).as("client %d connected", i).isTrue();
			this.clients.add(client);
			LockEngine engine = new LockEngine(client, ROOT);
			this.engines.add(engine);
			this.locks.add(new ExclusiveLockByCurator(engine));
		}
	}

	@AfterEach
	void stop() throws Exception {
		this.engines.forEach(LockEngine::close);
		this.clients.forEach(CuratorFramework::close);
		this.safeServices.forEach(ExecutorService::shutdownNow);
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void shouldLetTenThousandVirtualThreadsTakeAndReleaseHotLocksWithoutPinning() throws Exception {
		warmUp();
		AtomicIntegerArray inside = new AtomicIntegerArray(PATHS);
		AtomicIntegerArray mostInside = new AtomicIntegerArray(PATHS);
		AtomicInteger done = new AtomicInteger();
		AtomicInteger threadOwned = new AtomicInteger();
		AtomicLong violations = new AtomicLong();
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		List<Thread> threads = new ArrayList<>(THREADS);
		long wallNanos;
		int peakCarriers;
		String carrierSource;
		BlockingEvents jfr = BlockingEvents.start();
		try {
			try (CarrierThreads carriers = CarrierThreads.start()) {
				long start = System.nanoTime();
				for (int n = 0; n < THREADS; n++) {
					int number = n;
					threads.add(Thread.ofVirtual().name("locker-" + n).start(() -> {
						try {
							lockOnce(number, () -> {
								int path = pathOf(number);
								int now = inside.incrementAndGet(path);
								mostInside.accumulateAndGet(path, now, Math::max);
								if (now != 1) {
									violations.incrementAndGet();
								}
								Thread.yield();
								inside.decrementAndGet(path);
							}, threadOwned);
							done.incrementAndGet();
						}
						catch (Throwable ex) {
							failures.add(ex);
						}
					}));
				}
				long joinDeadline = System.nanoTime() + WAIT.plusMinutes(1).toNanos();
				for (Thread thread : threads) {
					thread.join(Duration.ofNanos(Math.max(1, joinDeadline - System.nanoTime())));
				}
				wallNanos = System.nanoTime() - start;
				peakCarriers = carriers.peak();
				carrierSource = carriers.source();
			}
			jfr.stop();
		}
		finally {
			jfr.close();
		}

		double seconds = wallNanos / 1e9;
		System.out.printf(Locale.ROOT, "%nVIRTUAL THREADS on %s %s: %,d threads (%,d thread-owned holds), %d hot lock "
				+ "paths, %d Curator clients%n  wall time %.2f s, %,.0f locks/s%n  peak carrier threads %d "
				+ "(scheduler parallelism %d; %s)%n  most bodies at once per path %s%n  JFR events of virtual threads "
				+ "(threshold 0), by the first frame outside the JDK:%n%s%n",
				Runtime.version(), System.getProperty("java.vm.name"), THREADS, threadOwned.get(), PATHS, CLIENTS,
				seconds, done.get() / seconds, peakCarriers, CarrierThreads.parallelism(), carrierSource, mostInside,
				jfr.summary());

		assertThat(failures).as("failed lock calls (first: %s)", failures.peek()).isEmpty();
		assertThat(threads).as("threads still running after %s", WAIT.plusMinutes(1)).noneMatch(Thread::isAlive);
		assertThat(done.get()).as("lock cycles completed").isEqualTo(THREADS);
		assertThat(violations.get()).as("bodies that found another body of their lock path inside").isZero();
		for (int path = 0; path < PATHS; path++) {
			assertThat(mostInside.get(path)).as("most bodies at once on hot/%d", path).isEqualTo(1);
		}
		assertNothingLeft();
		assertThat(jfr.of(BlockingEvents.PINNED)).as("jdk.VirtualThreadPinned events: carriers pinned by %s",
				jfr.byOrigin(BlockingEvents.PINNED)).isEmpty();
		assertThat(jfr.frames(BlockingEvents.MONITOR_WAIT, BlockingEvents.Origin.ZKLOCK))
			.as("Object.wait() by a virtual thread in zklock's code (pins on JDK 21-23)").isEmpty();
	}

	/**
	 * A few cycles of every client on every hot lock path, and a release with waiters queued,
	 * first on platform threads, then on virtual threads: classes are loaded and the paths'
	 * CONTAINER parents exist (the reaper leaves them for 60 s) before the measured run, as on a
	 * lock path in use. Both kinds of thread are needed: a virtual thread waits for its replies
	 * through Curator's background calls (a platform thread makes synchronous ones), and loading
	 * those calls' classes on a virtual thread pins its carrier once, which must happen here, not
	 * in the measured run.
	 */
	private void warmUp() throws Exception {
		warmUp(Executors.newFixedThreadPool(3));
		warmUp(Executors.newVirtualThreadPerTaskExecutor());
	}

	private void warmUp(ExecutorService threads) throws Exception {
		try {
			threads.submit(() -> {
				for (ExclusiveLockByCurator api : this.locks) {
					for (int path = 0; path < PATHS; path++) {
						String lockPath = "hot/" + path;
						for (int i = 0; i < 5; i++) {
							api.tryAcquire(lockPath, WAIT).orElseThrow().release();
							api.acquireDistributedLock(lockPath);
							api.releaseDistributedLock(lockPath);
						}
					}
				}
				return null;
			}).get(WAIT.toSeconds(), TimeUnit.SECONDS);
			// a release with waiters queued (one of this engine, one of another) takes the handoff paths,
			// whose Curator classes (transactions) must load here
			for (int i = 0; i < this.locks.size(); i++) {
				ExclusiveLockByCurator api = this.locks.get(i);
				ExclusiveLockByCurator other = this.locks.get((i + 1) % this.locks.size());
				LockHandle held = threads.submit(() -> api.tryAcquire("hot/0", WAIT).orElseThrow())
					.get(WAIT.toSeconds(), TimeUnit.SECONDS);
				Future<?> local = threads.submit(() -> api.tryAcquire("hot/0", WAIT).orElseThrow().release());
				Future<?> remote = threads.submit(() -> other.tryAcquire("hot/0", WAIT).orElseThrow().release());
				await().atMost(WAIT)
					.until(() -> children(this.clients.get(0), ZKPaths.makePath(ROOT, "hot/0")).size() >= 2);
				threads.submit(held::release).get(WAIT.toSeconds(), TimeUnit.SECONDS);
				local.get(WAIT.toSeconds(), TimeUnit.SECONDS);
				remote.get(WAIT.toSeconds(), TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	/** Thread {@code number}'s lock cycle: client, lock path and kind of hold follow from the number. */
	private void lockOnce(int number, Runnable body, AtomicInteger threadOwned) {
		ExclusiveLockByCurator api = this.locks.get(number % CLIENTS);
		String lockPath = "hot/" + pathOf(number);
		if (number % THREAD_OWNED_EVERY == 0) {
			threadOwned.incrementAndGet();
			api.acquireDistributedLock(lockPath);
			try {
				body.run();
			}
			finally {
				api.releaseDistributedLock(lockPath);
			}
		}
		else {
			LockHandle handle = api.tryAcquire(lockPath, WAIT)
				.orElseThrow(() -> new AssertionError("No lock on '" + lockPath + "' within " + WAIT));
			try {
				body.run();
			}
			finally {
				handle.release();
			}
		}
	}

	/** The lock path of thread {@code number}: the paths are spread evenly over the clients. */
	private static int pathOf(int number) {
		return (number / CLIENTS) % PATHS;
	}

	private void assertNothingLeft() {
		for (LockEngine engine : this.engines) {
			assertThat(engine.getHeldLocks()).as("holds left").isEmpty();
		}
		CuratorFramework client = this.clients.get(0);
		for (int path = 0; path < PATHS; path++) {
			assertThat(children(client, ZKPaths.makePath(ROOT, "hot/" + path))).as("lock nodes left under hot/%d", path)
				.isEmpty();
		}
		// watches are taken off in the background: wait for the last removals
		await().atMost(Duration.ofSeconds(30)).untilAsserted(
				() -> assertThat(serverWatchCount()).as("watches the server still keeps (mntr zk_watch_count)").isZero());
	}

	private static List<String> children(CuratorFramework client, String path) {
		try {
			return client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private int serverWatchCount() throws Exception {
		String mntr = FourLetterWordMain.send4LetterWord("127.0.0.1", this.server.getPort(), "mntr");
		for (String line : mntr.split("\n")) {
			String[] parts = line.trim().split("\\s+");
			if (parts.length == 2 && parts[0].equals("zk_watch_count")) {
				return Integer.parseInt(parts[1]);
			}
		}
		throw new IllegalStateException("No zk_watch_count in the server's mntr output: " + mntr);
	}

}
