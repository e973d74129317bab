package io.zklock.boot35;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.zklock.annotation.DistributedLock;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockListener;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockTarget;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A caller's cancel and {@code holdAtMost} on Spring Boot 3.5 (Spring Framework 6.2's AOP and
 * binding): a stage cancelled after a timed {@code get}, a {@code Mono} on a future cut off by
 * {@code timeout} and a {@code Flux} cut off by {@code take} never let a second body run while the
 * first one's work goes on; a hold past its bound (the annotation's, {@code zklock.default-hold-at-most},
 * a {@code LockRequest}'s) is reported and kept. The Boot 4 tests
 * ({@code DistributedLockCancellationTests}, {@code DistributedLockHoldAtMostTests}) cover every case.
 */
@EmbeddedZooKeeper
@Timeout(90)
class Boot35CancellationTests {

	private static final ExecutorService workThreads = Executors.newCachedThreadPool();

	@AfterAll
	static void stopWorkThreads() {
		workThreads.shutdownNow();
	}

	@Test
	void shouldKeepTheLockWhileTheWorkOfACancelledStageOrMonoGoesOn(TestZooKeeper zookeeper) {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		context(zookeeper).run((context) -> {
			Exports exports = context.getBean(Exports.class);
			Bodies bodies = context.getBean(Bodies.class);
			CompletableFuture<String> first = exports.stage("a");
			bodies.started("a").get(10, TimeUnit.SECONDS);
			assertThatExceptionOfType(TimeoutException.class).isThrownBy(() -> first.get(50, TimeUnit.MILLISECONDS));
			assertThat(first.cancel(true)).isTrue();
			assertThat(exports.stage("a").get(10, TimeUnit.SECONDS)).isEqualTo("done a");

			assertThatExceptionOfType(RuntimeException.class)
				.isThrownBy(() -> exports.mono("b")
					.timeout(Mono.fromFuture(bodies.started("b"), true))
					.block(Duration.ofSeconds(10)))
				.havingCause()
				.isInstanceOf(TimeoutException.class);
			assertThat(exports.mono("b").block(Duration.ofSeconds(10))).isEqualTo("done b");
			assertThat(bodies.entered.get()).isEqualTo(4);
			assertThat(bodies.mostAtOnce.get()).as("bodies at once under one EXCLUSIVE lock").isOne();
		});
	}

	@Test
	void shouldKeepTheLockOfAFluxCutOffByTakeForTheHoldAfterCancel(TestZooKeeper zookeeper) {
		context(zookeeper).withPropertyValues("zklock.hold-after-cancel=1s").run((context) -> {
			Exports exports = context.getBean(Exports.class);
			assertThat(exports.flux("c").take(1).collectList().block(Duration.ofSeconds(10))).containsExactly("started c");
			assertThat(exports.flux("c").collectList().block(Duration.ofSeconds(10)))
				.containsExactly("started c", "done c");
			assertThat(context.getBean(Bodies.class).mostAtOnce.get()).as("bodies at once under one EXCLUSIVE lock")
				.isOne();
			assertThat(context.getBean(Breaches.class).events).singleElement().satisfies((breach) -> {
				assertThat(breach.lock().lockPath()).isEqualTo("boot35-exports/c");
				assertThat(breach.bound()).isEqualTo(Duration.ofSeconds(1));
				assertThat(breach.released()).isTrue();
			});
		});
	}

	@Test
	void shouldReportHoldsPastTheirBoundAndKeepThem(TestZooKeeper zookeeper) {
		context(zookeeper).withPropertyValues("zklock.default-hold-at-most=200ms", "zklock.on-hold-exceeded=warn")
			.run((context) -> {
				Exports exports = context.getBean(Exports.class);
				CompletableFuture<Void> annotated = CompletableFuture.runAsync(exports::overrun, workThreads);
				LockHandle handle = context.getBean(ILockByCurator.class)
					.acquire(LockRequest.of("boot35-api", LockMode.EXCLUSIVE).holdAtMost(Duration.ofMillis(200)));
				Breaches breaches = context.getBean(Breaches.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> breaches.events.size() == 2);
				assertThat(breaches.events).extracting((breach) -> breach.lock().lockPath())
					.containsExactlyInAnyOrder("boot35-overrun", "boot35-api");
				assertThat(breaches.events).allSatisfy((breach) -> {
					assertThat(breach.bound()).isEqualTo(Duration.ofMillis(200));
					assertThat(breach.released()).isFalse();
				});
				assertThat(otherCanLock(context, "boot35-overrun")).as("kept past its bound").isFalse();
				assertThat(otherCanLock(context, "boot35-api")).as("kept past its bound").isFalse();
				context.getBean(Bodies.class).finish.countDown();
				annotated.get(10, TimeUnit.SECONDS);
				handle.release();
				assertThat(otherCanLock(context, "boot35-overrun")).isTrue();
				assertThat(otherCanLock(context, "boot35-api")).isTrue();
			});
	}

	private static ApplicationContextRunner context(TestZooKeeper zookeeper) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LockedMethodsAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.withUserConfiguration(CancellationConfiguration.class);
	}

	private static boolean otherCanLock(ApplicationContext context, String path) {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		return CompletableFuture.supplyAsync(() -> locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
			.map((lock) -> {
				lock.release();
				return true;
			})
			.orElse(false), workThreads).orTimeout(10, TimeUnit.SECONDS).join();
	}

	/** The bodies of {@link Exports}, counted outside its proxy. */
	static class Bodies {

		final AtomicInteger entered = new AtomicInteger();

		final AtomicInteger mostAtOnce = new AtomicInteger();

		final AtomicInteger running = new AtomicInteger();

		final CountDownLatch finish = new CountDownLatch(1);

		private final Map<String, CompletableFuture<Boolean>> started = new ConcurrentHashMap<>();

		/** Completes when the first body on {@code id} has started. */
		CompletableFuture<Boolean> started(String id) {
			return this.started.computeIfAbsent(id, (key) -> new CompletableFuture<>());
		}

	}

	/** Work of 400 ms on another thread, behind what each method returns, ignoring interrupts. */
	static class Exports {

		private final Bodies bodies;

		Exports(Bodies bodies) {
			this.bodies = bodies;
		}

		@DistributedLock(path = "boot35-exports", key = "#id", waitTime = "10s")
		public CompletableFuture<String> stage(String id) {
			return work(id);
		}

		@DistributedLock(path = "boot35-exports", key = "#id", waitTime = "10s")
		public Mono<String> mono(String id) {
			return Mono.fromFuture(work(id));
		}

		@DistributedLock(path = "boot35-exports", key = "#id", waitTime = "10s")
		public Flux<String> flux(String id) {
			return Flux.just("started " + id).concatWith(Mono.fromFuture(work(id)));
		}

		/** Runs until {@link #finish}, past its bound (zklock.default-hold-at-most). */
		@DistributedLock(path = "boot35-overrun")
		public void overrun() {
			try {
				this.bodies.finish.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		private CompletableFuture<String> work(String id) {
			return CompletableFuture.supplyAsync(() -> {
				this.bodies.entered.incrementAndGet();
				this.bodies.mostAtOnce.accumulateAndGet(this.bodies.running.incrementAndGet(), Math::max);
				this.bodies.started(id).complete(true);
				try {
					sleepThroughInterrupts(400);
					return "done " + id;
				}
				finally {
					this.bodies.running.decrementAndGet();
				}
			}, workThreads);
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

	/** One {@link LockListener#onHoldExceeded} event. */
	record Breach(LockTarget lock, Duration bound, boolean released) {
	}

	static class Breaches implements LockListener {

		final List<Breach> events = new CopyOnWriteArrayList<>();

		@Override
		public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
				boolean released) {
			this.events.add(new Breach(lock, bound, released));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CancellationConfiguration {

		@Bean
		Bodies bodies() {
			return new Bodies();
		}

		@Bean
		Exports exports(Bodies bodies) {
			return new Exports(bodies);
		}

		@Bean
		Breaches breaches() {
			return new Breaches();
		}

	}

}
