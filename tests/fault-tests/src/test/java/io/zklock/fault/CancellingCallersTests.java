package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;
import io.zklock.fixtures.FourLetterWords;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import io.zklock.test.history.CheckResult;
import io.zklock.test.history.LockHistory;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Test 9, callers that give up under ensemble faults: two application
 * contexts (two sessions) on a three-member ensemble call {@code @DistributedLock} methods whose
 * work goes on behind what they return, and give up on them at random: a stage cancelled
 * ({@code cancel(true)}) after a timed {@code get}, a {@code Mono} on a future cut off by
 * {@code timeout}, a {@code Flux} cut off by {@code take(1)} while a future under it runs. Every
 * {@value #RESTART_PERIOD_MILLIS} ms one member crashes and comes back, the leader among them, so
 * held locks go in doubt and are confirmed while bodies run. Each body is recorded from its start
 * under its lock to the end of its work, and zklock's published checker judges them: no two at
 * once on a lock path. Afterwards no hold, lock node or watch is left.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class CancellingCallersTests {

	private static final Duration RUN = Duration.ofSeconds(20);

	private static final long RESTART_PERIOD_MILLIS = 3000;

	private static final List<String> KEYS = List.of("a", "b");

	private static final ExecutorService workThreads = Executors.newCachedThreadPool();

	private static final LockHistory bodies = new LockHistory();

	private static final LockHistory reported = new LockHistory();

	private static final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

	private static final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

	private static final AtomicInteger cancels = new AtomicInteger();

	/** What the member crashes did to held locks: in doubt, confirmed again, lost. */
	private static final Map<String, AtomicInteger> connectionEvents = new ConcurrentHashMap<>();

	@AfterAll
	static void stopWorkThreads() {
		workThreads.shutdownNow();
	}

	@Test
	void shouldNeverRunTwoBodiesAtOnceWhileCallersGiveUpThroughMemberCrashes() throws Exception {
		Figures figures = new Figures("9 cancelling callers");
		try (InProcessEnsemble ensemble = new InProcessEnsemble(3)) {
			figures.ensemble(ensemble.description());
			ApplicationContextRunner runner = new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
						LockedMethodsAutoConfiguration.class))
				.withUserConfiguration(CancellingConfiguration.class)
				.withPropertyValues("zklock.zookeeper.connect-string=" + ensemble.connectString(),
						"zklock.zookeeper.session-timeout=8s", "zklock.hold-after-cancel=500ms");
			runner.withPropertyValues("holder=app-1").run((one) -> runner.withPropertyValues("holder=app-2").run((two) -> {
				List<ConfigurableApplicationContext> contexts = List.of(one, two);
				one.getBean(LockEngine.class).addListener(reported.listener("app-1"));
				two.getBean(LockEngine.class).addListener(reported.listener("app-2"));
				contexts.forEach((context) -> context.getBean(LockEngine.class).addListener(new ConnectionEvents()));
				long end = System.nanoTime() + RUN.toNanos();
				List<Thread> callers = new ArrayList<>();
				for (int i = 0; i < 6; i++) {
					Thread caller = new Thread(() -> call(contexts, end), "cancelling-caller-" + i);
					callers.add(caller);
					caller.start();
				}
				int restarts = crashMembers(ensemble, end);
				for (Thread caller : callers) {
					caller.join(TimeUnit.SECONDS.toMillis(90));
					assertThat(caller.isAlive()).as("%s finished", caller.getName()).isFalse();
				}

				CheckResult result = bodies.check();
				CheckResult grants = reported.check();
				for (ConfigurableApplicationContext context : contexts) {
					LockEngine engine = context.getBean(LockEngine.class);
					await("no hold left, now " + engine.getHeldLocks()).atMost(Duration.ofSeconds(30))
						.until(() -> engine.getHeldLocks().isEmpty());
				}
				CuratorFramework client = one.getBean(CuratorFramework.class);
				await("no lock node left").atMost(Duration.ofSeconds(30))
					.until(() -> KEYS.stream().allMatch((key) -> lockNodes(client, key) == 0));
				await("no watch left on a lock node").atMost(Duration.ofSeconds(30))
					.until(() -> lockWatches(ensemble).isEmpty());
				for (int i = 0; i < restarts; i++) {
					figures.fault("member crash and restart (the leader every other time)");
				}
				figures.rounds(result.grants())
					.overlaps(Integer.toString(result.overlaps().size()))
					.leaks(0, 0)
					.extra("callers that gave up (cancel, timeout, take)", cancels.get())
					.extra("calls by shape", calls)
					.extra("calls failed by shape", failures)
					.extra("grants reported by the engines", grants.grants())
					.extra("held locks in doubt / confirmed again / lost", count("in doubt") + " / "
							+ count("confirmed") + " / " + count("lost"))
					.extra("losses found on release", grants.lostOnRelease());
				result.assertSafe();
				grants.assertFenced();
				assertThat(cancels.get()).as("callers that gave up").isPositive();
			}));
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	private static int count(String event) {
		AtomicInteger count = connectionEvents.get(event);
		return (count != null) ? count.get() : 0;
	}

	/** Counts what the connection did to held locks. */
	static final class ConnectionEvents implements LockListener {

		@Override
		public void onInDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
			connectionEvents.computeIfAbsent("in doubt", (name) -> new AtomicInteger()).incrementAndGet();
		}

		@Override
		public void onConfirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
			connectionEvents.computeIfAbsent("confirmed", (name) -> new AtomicInteger()).incrementAndGet();
		}

		@Override
		public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
			connectionEvents.computeIfAbsent("lost", (name) -> new AtomicInteger()).incrementAndGet();
		}

	}

	/** One caller: a random shape and key until the end, giving up on most calls. */
	private static void call(List<ConfigurableApplicationContext> contexts, long end) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < end) {
			Exports exports = contexts.get(random.nextInt(contexts.size())).getBean(Exports.class);
			String key = KEYS.get(random.nextInt(KEYS.size()));
			int pick = random.nextInt(6);
			String shape = (pick < 3) ? "stage-cancel" : (pick < 5) ? "mono-timeout" : "flux-take";
			calls.computeIfAbsent(shape, (name) -> new AtomicInteger()).incrementAndGet();
			try {
				switch (shape) {
					case "stage-cancel" -> {
						CompletableFuture<Void> stage = exports.stage(key);
						try {
							stage.get(random.nextInt(6), TimeUnit.MILLISECONDS);
						}
						catch (TimeoutException ex) {
							stage.cancel(true);
							cancels.incrementAndGet();
						}
					}
					case "mono-timeout" -> exports.mono(key)
						.timeout(Duration.ofMillis(1 + random.nextInt(6)))
						.doOnError(TimeoutException.class, (ex) -> cancels.incrementAndGet())
						.onErrorComplete(TimeoutException.class)
						.block(Duration.ofSeconds(60));
					default -> {
						exports.flux(key).take(1).blockLast(Duration.ofSeconds(60));
						cancels.incrementAndGet();
					}
				}
			}
			catch (Exception ex) {
				// a wait that ran out while the ensemble moved, counted; never a reason to stop
				failures.computeIfAbsent(shape, (name) -> new AtomicInteger()).incrementAndGet();
			}
		}
	}

	/** Crashes one member at a time (the leader every other time) and restarts it, until the end. */
	private static int crashMembers(InProcessEnsemble ensemble, long end) throws Exception {
		int restarts = 0;
		while (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESTART_PERIOD_MILLIS) < end) {
			Thread.sleep(RESTART_PERIOD_MILLIS / 2);
			int member = (restarts % 2 == 0) ? EnsembleProbe.awaitLeader(ensemble) : restarts % ensemble.size();
			ensemble.kill(member);
			Thread.sleep(RESTART_PERIOD_MILLIS / 2);
			ensemble.restart(member);
			restarts++;
		}
		return restarts;
	}

	private static int lockNodes(CuratorFramework client, String key) {
		String path = "/locks/cancelling/" + key;
		try {
			return (client.checkExists().forPath(path) == null) ? 0 : client.getChildren().forPath(path).size();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> lockWatches(InProcessEnsemble ensemble) {
		List<String> watches = new ArrayList<>();
		for (int port : ensemble.clientPorts()) {
			FourLetterWords.watchedPaths(port)
				.stream()
				.filter((path) -> path.contains("/cancelling/"))
				.forEach(watches::add);
		}
		return watches;
	}

	/**
	 * Methods whose work runs 2–10 ms on another thread, behind the stage, {@code Mono} or
	 * {@code Flux} they return; the body is recorded from the call, under its lock, to the end
	 * of that work, whatever the caller does meanwhile.
	 */
	static class Exports {

		private final String holder;

		Exports(String holder) {
			this.holder = holder;
		}

		@DistributedLock(path = "cancelling", key = "#key", waitTime = "30s")
		public CompletableFuture<Void> stage(String key) {
			return work();
		}

		@DistributedLock(path = "cancelling", key = "#key", waitTime = "30s")
		public Mono<Void> mono(String key) {
			return Mono.fromFuture(work());
		}

		@DistributedLock(path = "cancelling", key = "#key", waitTime = "30s")
		public Flux<String> flux(String key) {
			return Flux.just("started").concatWith(Mono.fromFuture(work().thenApply((ignored) -> "done")));
		}

		private CompletableFuture<Void> work() {
			LockHandle lock = LockContext.currentLock()
				.orElseThrow(() -> new IllegalStateException("No annotated lock on this thread"));
			LockHistory.Section body = bodies.enter(this.holder, lock);
			CompletableFuture<Void> task = CompletableFuture.runAsync(() -> {
				try {
					sleepThroughInterrupts(2 + ThreadLocalRandom.current().nextInt(9));
				}
				finally {
					body.close();
				}
			}, workThreads);
			// what the method returns depends on the task: a cancel of it never keeps the task from running
			return task.copy();
		}

		private static void sleepThroughInterrupts(long millis) {
			long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
			for (long left = millis; left > 0; left = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())) {
				try {
					Thread.sleep(left);
				}
				catch (InterruptedException ex) {
					// work that does not stop for an interrupt
				}
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CancellingConfiguration {

		@Bean
		Exports exports(Environment environment) {
			return new Exports(environment.getRequiredProperty("holder"));
		}

	}

}
