package io.zklock.annotation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.zklock.fixtures.FourLetterWords;
import io.zklock.fixtures.ZooKeeperServers;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.event.LockListener;
import io.zklock.test.history.CheckResult;
import io.zklock.test.history.LockHistory;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A randomized stress run: three application contexts (three sessions), worker threads calling
 * every call shape — synchronous, {@code CompletionStage} completed on another thread,
 * {@code Mono}, {@code Flux}, {@code @Async}, and a handle released from another thread — in
 * every mode on two shared lock paths, with short and long waits and random interrupts; and
 * callers that give up on the work they started: a stage cancelled ({@code cancel(true)}) after
 * a timed {@code get}, a {@code Mono} on a future cut off by {@code timeout}, a {@code Flux}
 * cut off by {@code take(1)} while a future under it runs. A body counts as running until its
 * work has ended, not until its caller gave up. Every
 * body is recorded, from its start under its lock to its end, and zklock's published history
 * checker ({@code zklock-test-history}) judges them: no writer or exclusive body may overlap any
 * other body, and fencing tokens are unique; the grants the contexts report are checked for
 * real-time token order. Afterwards no lock node, hold or watch is left. The run lasts
 * {@code zklock.stress.duration} (default 20 s).
 */
@Timeout(360)
@Tag("slow")
class LockStressTests extends ZkAnnotationTest {

	private static final Logger logger = LoggerFactory.getLogger(LockStressTests.class);

	private static final Duration DURATION = Duration.parse("PT" + System.getProperty("zklock.stress.duration", "20s"));

	private static final List<String> KEYS = List.of("a", "b");

	/** A new one for each run of the test. */
	private static volatile Checker checker = new Checker();

	private static final ExecutorService completer = Executors.newFixedThreadPool(4);

	private static final AtomicInteger contexts = new AtomicInteger();

	private final ApplicationContextRunner lockingContext = lockingContext()
		.withUserConfiguration(StressConfiguration.class)
		// a Flux cut off by take(1) keeps its lock this long while the future under it runs on the
		// shared completer pool; on a loaded 2-core machine that queue once took 239 ms, past 100 ms,
		// and the lock was let go, as documented, while the body still ran
		.withPropertyValues("zklock.hold-after-cancel=2s");

	/** Runs once with local handoff off, once on with bounds the run reaches often. */
	@ParameterizedTest(name = "local handoff {0}")
	@ValueSource(booleans = { false, true })
	void shouldNeverRunAWriterAlongsideAnyOtherBodyAcrossEveryCallShape(boolean localHandoff) throws Exception {
		checker = new Checker();
		ApplicationContextRunner contextRunner = this.lockingContext.withPropertyValues(
				"zklock.local-handoff.enabled=" + localHandoff, "zklock.local-handoff.max-handoffs=6",
				"zklock.local-handoff.max-time=40ms");
		contextRunner.run((one) -> contextRunner.run((two) -> contextRunner.run((three) -> {
			List<ConfigurableApplicationContext> contexts = List.of(one, two, three);
			List<Thread> workers = new ArrayList<>();
			long end = System.nanoTime() + DURATION.toNanos();
			for (int i = 0; i < 8; i++) {
				Thread worker = new Thread(() -> work(contexts, end), "stress-worker-" + i);
				workers.add(worker);
				worker.start();
			}
			Thread chaos = new Thread(() -> interruptAtRandom(workers, end), "stress-chaos");
			chaos.start();
			for (Thread worker : workers) {
				worker.join(DURATION.toMillis() + 60_000);
				assertThat(worker.isAlive()).as("%s finished", worker.getName()).isFalse();
			}
			chaos.join();
			logger.info("stress: {}", checker);
			CheckResult bodies = checker.bodies.check();
			logger.info("stress history (local handoff {}): {} bodies on {} lock nodes, {} overlapping; {} grants "
					+ "reported, {} token violations", localHandoff, bodies.grants(), checker.nodes.size(),
					bodies.overlaps().size(), checker.reported.check().grants(),
					checker.reported.check().violations().size());
			bodies.assertSafe();
			checker.reported.check().assertFenced();
			assertThat(checker.grants.get()).as("grants").isPositive();
			for (ConfigurableApplicationContext context : contexts) {
				LockEngine engine = context.getBean(LockEngine.class);
				await("no hold left, now " + engine.getHeldLocks()).atMost(Duration.ofSeconds(30))
					.until(() -> engine.getHeldLocks().isEmpty());
			}
			CuratorFramework client = one.getBean(CuratorFramework.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> KEYS.stream().allMatch((key) -> noNodes(client, key)));
			await().atMost(Duration.ofSeconds(30)).until(() -> !serverWatches().contains("/stress/"));
		})));
	}

	/** One worker: random shape, mode and key until the end; every failure is counted, none stops it. */
	private static void work(List<ConfigurableApplicationContext> contexts, long end) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < end) {
			ConfigurableApplicationContext context = contexts.get(random.nextInt(contexts.size()));
			Workers workers = context.getBean(Workers.class);
			String key = KEYS.get(random.nextInt(KEYS.size()));
			boolean shortWait = random.nextInt(4) == 0;
			String shape = "none";
			try {
				switch (random.nextInt(11)) {
					case 0 -> {
						shape = "sync";
						if (shortWait) {
							workers.exclusiveOrGiveUp(key);
						}
						else {
							workers.exclusive(key);
						}
					}
					case 1 -> {
						shape = "sync";
						workers.read(key);
					}
					case 2 -> {
						shape = "sync";
						workers.write(key);
					}
					case 3 -> {
						shape = "stage";
						workers.stage(key).get(30, TimeUnit.SECONDS);
					}
					case 4 -> {
						shape = "mono";
						workers.mono(key).block(Duration.ofSeconds(30));
					}
					case 5 -> {
						shape = "flux";
						workers.flux(key).blockLast(Duration.ofSeconds(30));
					}
					case 6 -> {
						shape = "async";
						workers.async(key).get(30, TimeUnit.SECONDS);
					}
					case 7 -> {
						shape = "stage-cancel";
						CompletableFuture<Void> stage = workers.stage(key);
						try {
							stage.get(random.nextInt(4), TimeUnit.MILLISECONDS);
						}
						catch (TimeoutException ex) {
							stage.cancel(true);
							checker.cancels.incrementAndGet();
						}
					}
					case 8 -> {
						shape = "mono-timeout";
						workers.monoOnFuture(key)
							.timeout(Duration.ofMillis(1 + random.nextInt(4)))
							.doOnError(TimeoutException.class, (ex) -> checker.cancels.incrementAndGet())
							.onErrorComplete(TimeoutException.class)
							.block(Duration.ofSeconds(30));
					}
					case 9 -> {
						shape = "flux-take";
						workers.fluxOnFuture(key).take(1).blockLast(Duration.ofSeconds(30));
						checker.cancels.incrementAndGet();
					}
					default -> {
						shape = "handle";
						handleReleasedElsewhere(context.getBean(ILockByCurator.class), key, shortWait);
					}
				}
				checker.calls.computeIfAbsent(shape, (s) -> new AtomicInteger()).incrementAndGet();
			}
			catch (Exception ex) {
				checker.failures.computeIfAbsent(shape + " " + ex.getClass().getSimpleName(), (s) -> new AtomicInteger())
					.incrementAndGet();
			}
			finally {
				Thread.interrupted();
			}
		}
	}

	/** A handle taken on this thread, its body run and the handle released on another thread. */
	private static void handleReleasedElsewhere(ILockByCurator locks, String key, boolean shortWait) throws Exception {
		LockHandle handle = locks.tryAcquire("stress/" + key, LockMode.WRITE,
				shortWait ? Duration.ofMillis(50) : Duration.ofSeconds(10)).orElse(null);
		if (handle == null) {
			checker.failures.computeIfAbsent("handle timeout", (s) -> new AtomicInteger()).incrementAndGet();
			return;
		}
		CompletableFuture.runAsync(() -> {
			checker.run(handle, "handle");
			handle.release();
		}, completer).get(30, TimeUnit.SECONDS);
	}

	private static void interruptAtRandom(List<Thread> workers, long end) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < end) {
			try {
				Thread.sleep(20 + random.nextInt(60));
			}
			catch (InterruptedException ex) {
				return;
			}
			workers.get(random.nextInt(workers.size())).interrupt();
			checker.interrupts.incrementAndGet();
		}
	}

	private static boolean noNodes(CuratorFramework client, String key) {
		String path = "/locks/stress/" + key;
		try {
			return client.checkExists().forPath(path) == null || client.getChildren().forPath(path).isEmpty();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String serverWatches() {
		ZooKeeperServers.enableFourLetterWords();
		return FourLetterWords.send(server.getPort(), "wchp")
			.orElseThrow(() -> new IllegalStateException("No answer to wchp on port " + server.getPort()));
	}

	/**
	 * Records every body into a lock history and every grant the three contexts report into
	 * another, for zklock's published checker ({@code zklock-test-history}); thread-safe.
	 */
	static final class Checker {

		/** The bodies: from the moment each starts under its lock to the moment it ends. */
		final LockHistory bodies = new LockHistory();

		/** What the contexts' engines report (acquire start, grant, release), for the fencing order. */
		final LockHistory reported = new LockHistory();

		final AtomicLong grants = new AtomicLong();

		/** The lock nodes the bodies ran under: fewer than the bodies once nodes are handed on. */
		final Set<String> nodes = ConcurrentHashMap.newKeySet();

		final AtomicInteger interrupts = new AtomicInteger();

		/** Calls whose caller gave up on them: a cancel, a timeout or a take. */
		final AtomicInteger cancels = new AtomicInteger();

		final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

		/** Runs a body of 1–5 ms under the current thread's annotated lock. */
		void run(String key, LockMode mode, String shape) {
			Body body = enter(key, mode, shape);
			try {
				simulateWork();
			}
			finally {
				exit(body);
			}
		}

		/** Runs a body of 1–5 ms under the given lock. */
		void run(LockHandle lock, String shape) {
			Body body = enter(lock, shape);
			try {
				simulateWork();
			}
			finally {
				exit(body);
			}
		}

		/** A body starts under the current thread's annotated lock ({@link LockContext}). */
		Body enter(String key, LockMode mode, String shape) {
			LockHandle lock = LockContext.currentLock()
				.orElseThrow(() -> new IllegalStateException("No annotated lock on this thread for the " + shape
						+ " body on '" + key + "': pass its handle"));
			if (!lock.lockPath().equals("stress/" + key)) {
				throw new IllegalStateException("The " + shape + " body on '" + key + "' runs under " + lock.lockPath());
			}
			return enter(lock, shape);
		}

		/** A body starts under the given lock. */
		Body enter(LockHandle lock, String shape) {
			this.grants.incrementAndGet();
			this.nodes.add(lock.nodePath());
			return new Body(this.bodies.enter(shape, lock));
		}

		void exit(Body body) {
			body.section().close();
		}

		private static void simulateWork() {
			try {
				Thread.sleep(1 + ThreadLocalRandom.current().nextInt(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		@Override
		public String toString() {
			return "grants=" + this.grants + ", interrupts=" + this.interrupts + ", cancels=" + this.cancels
					+ ", calls=" + this.calls + ", failures=" + this.failures;
		}

		/** One body running under a lock. */
		record Body(LockHistory.Section section) {

		}

	}

	static class Workers {

		@DistributedLock(path = "stress", key = "#key", waitTime = "10s")
		public void exclusive(String key) {
			checker.run(key, LockMode.EXCLUSIVE, "sync");
		}

		@DistributedLock(path = "stress", key = "#key", waitTime = "50ms")
		public void exclusiveOrGiveUp(String key) {
			checker.run(key, LockMode.EXCLUSIVE, "sync");
		}

		@DistributedLock(path = "stress", key = "#key", mode = LockMode.READ, waitTime = "50ms")
		public void read(String key) {
			checker.run(key, LockMode.READ, "sync");
		}

		@DistributedLock(path = "stress", key = "#key", mode = LockMode.WRITE, waitTime = "10s")
		public void write(String key) {
			checker.run(key, LockMode.WRITE, "sync");
		}

		/** Completes on another thread, which then releases the lock. */
		@DistributedLock(path = "stress", key = "#key", waitTime = "10s")
		public CompletableFuture<Void> stage(String key) {
			return work(key, LockMode.EXCLUSIVE, "stage");
		}

		/** The body ends before its terminal signal or cancel travels on (doFinally would run after). */
		@DistributedLock(path = "stress", key = "#key", mode = LockMode.WRITE, waitTime = "10s")
		public Mono<Void> mono(String key) {
			return Mono.deferContextual((context) -> {
				Checker.Body body = checker.enter(ReactiveLockContext.lockIn(context).orElseThrow(), "mono");
				Runnable exit = once(() -> checker.exit(body));
				return Mono.delay(Duration.ofMillis(1 + ThreadLocalRandom.current().nextInt(5)))
					.doOnTerminate(exit)
					.doOnCancel(exit)
					.then();
			});
		}

		@DistributedLock(path = "stress", key = "#key", mode = LockMode.READ, waitTime = "10s")
		public Flux<Long> flux(String key) {
			return Flux.deferContextual((context) -> {
				Checker.Body body = checker.enter(ReactiveLockContext.lockIn(context).orElseThrow(), "flux");
				Runnable exit = once(() -> checker.exit(body));
				return Flux.interval(Duration.ofMillis(1)).take(3).doOnTerminate(exit).doOnCancel(exit);
			});
		}

		/** A Mono on a future: its body runs until the future's work ends, whatever its subscriber does. */
		@DistributedLock(path = "stress", key = "#key", mode = LockMode.WRITE, waitTime = "10s")
		public Mono<Void> monoOnFuture(String key) {
			return Mono.fromFuture(work(key, LockMode.WRITE, "mono-timeout"));
		}

		/** One element at once, then one from a future whose work goes on when the subscriber stops at the first. */
		@DistributedLock(path = "stress", key = "#key", waitTime = "10s")
		public Flux<String> fluxOnFuture(String key) {
			CompletableFuture<String> work = work(key, LockMode.EXCLUSIVE, "flux-take").thenApply((ignored) -> "done");
			return Flux.just("started").concatWith(Mono.fromFuture(work));
		}

		/**
		 * A body of 1–5 ms on another thread, entered now under the method's lock and left by the
		 * work itself before it completes (a callback on its stage could run after the lock's
		 * release, or never if a stage depending on it were cancelled).
		 */
		private static CompletableFuture<Void> work(String key, LockMode mode, String shape) {
			Checker.Body body = checker.enter(key, mode, shape);
			CompletableFuture<Void> task = CompletableFuture.runAsync(() -> {
				try {
					Checker.simulateWork();
				}
				finally {
					checker.exit(body);
				}
			}, completer);
			// what the method returns depends on the task: a cancel of it never keeps the task from
			// running (a body entered and never left would overlap every later one)
			return task.copy();
		}

		private static Runnable once(Runnable action) {
			java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
			return () -> {
				if (done.compareAndSet(false, true)) {
					action.run();
				}
			};
		}

		@Async
		@DistributedLock(path = "stress", key = "#key", waitTime = "10s")
		public CompletableFuture<Void> async(String key) {
			checker.run(key, LockMode.EXCLUSIVE, "async");
			return CompletableFuture.completedFuture(null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync(proxyTargetClass = true)
	static class StressConfiguration {

		@Bean
		Workers workers() {
			return new Workers();
		}

		@Bean
		LockListener stressHistory() {
			return checker.reported.listener("app-" + contexts.incrementAndGet());
		}

	}

}
