package io.zklock.annotation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.zklock.fixtures.Sessions;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;
import io.zklock.lock.LockEngine;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * One EXCLUSIVE lock, every call shape whose work outlives the calling thread: at most one
 * body runs at once (a call-owned hold never joins another, whatever threads the calls share),
 * and {@code zklock.on-lock-lost=fail} applies before a stage or a publisher completes.
 */
@Timeout(120)
@Tag("slow")
class DistributedLockCallShapeTests extends ZkAnnotationTest {

	private static final ExecutorService completer = Executors.newCachedThreadPool();

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(ShapeConfiguration.class);

	@AfterAll
	static void stopCompleter() {
		completer.shutdownNow();
	}

	@Test
	void shouldNotRunASecondStageBodyOnTheSameThreadWhileTheFirstStageIsPending() {
		this.contextRunner.run((context) -> {
			Shapes shapes = context.getBean(Shapes.class);
			CompletableFuture<String> gate = new CompletableFuture<>();
			CompletionStage<String> first = shapes.stage(gate);
			assertThat(shapes.bodies().entered()).isOne();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> shapes.stageWithShortWait(CompletableFuture.completedFuture("second")))
				.withMessageContaining("'shape'");
			assertThat(shapes.bodies().max()).as("bodies at once").isOne();
			gate.complete("first");
			assertThat(first.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("first");
			assertThat(shapes.stageWithShortWait(CompletableFuture.completedFuture("third")).toCompletableFuture()
				.get(10, TimeUnit.SECONDS)).isEqualTo("third");
			assertThat(shapes.bodies().max()).isOne();
		});
	}

	@Test
	void shouldRunSixConcurrentMonoSubscriptionsOneAtATime() {
		this.contextRunner.run((context) -> {
			Shapes shapes = context.getBean(Shapes.class);
			List<String> results = staggered().flatMap((i) -> shapes.mono(i), 6).collectList()
				.block(Duration.ofSeconds(60));
			assertThat(results).hasSize(6);
			assertThat(shapes.bodies().entered()).isEqualTo(6);
			assertThat(shapes.bodies().max()).as("bodies at once").isOne();
		});
	}

	@Test
	void shouldRunSixConcurrentFluxSubscriptionsOneAtATime() {
		this.contextRunner.run((context) -> {
			Shapes shapes = context.getBean(Shapes.class);
			List<Integer> results = staggered().flatMap((i) -> shapes.flux(i), 6).collectList()
				.block(Duration.ofSeconds(60));
			assertThat(results).hasSize(18);
			assertThat(shapes.bodies().entered()).isEqualTo(6);
			assertThat(shapes.bodies().max()).as("bodies at once").isOne();
		});
	}

	/**
	 * Six subscriptions 40 ms apart, each body running 300 ms: each later subscription takes its
	 * lock on a bounded-elastic worker that an earlier one has just left, while that one's body
	 * still runs.
	 */
	private static Flux<Integer> staggered() {
		return Flux.interval(Duration.ofMillis(40)).take(6).map(Long::intValue);
	}

	@Test
	void shouldRunAsyncBodiesOneAtATimeOnAReusedWorker() {
		this.contextRunner.run((context) -> {
			Shapes shapes = context.getBean(Shapes.class);
			List<CompletableFuture<String>> calls = List.of(shapes.async(0), shapes.async(1), shapes.async(2),
					shapes.async(3));
			CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			assertThat(shapes.bodies().entered()).isEqualTo(4);
			assertThat(shapes.bodies().max()).as("bodies at once").isOne();
		});
	}

	@Test
	void shouldFailAStageWhoseLockWasLostBeforeItCompleted() {
		this.contextRunner.run((context) -> {
			Shapes shapes = context.getBean(Shapes.class);
			CompletableFuture<String> gate = new CompletableFuture<>();
			CompletionStage<String> call = shapes.stage(gate);
			LockHandle lock = shapes.lastLock();
			Sessions.expire(context.getBean(CuratorFramework.class), server.getConnectString());
			await().atMost(Duration.ofSeconds(20)).until(() -> lock.state() == LockState.LOST);
			gate.complete("done while the lock was lost");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> call.toCompletableFuture().get(10, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LockLostException.class)
				.withMessageContaining("'shape'")
				.withMessageContaining("Shapes.stage(CompletableFuture)");
		});
	}

	@Test
	void shouldFailAMonoWhoseLockWasLostBeforeItEmitted() {
		this.contextRunner.run((context) -> {
			Shapes shapes = context.getBean(Shapes.class);
			Sinks.One<String> gate = Sinks.one();
			LockEngine engine = context.getBean(LockEngine.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			StepVerifier.create(shapes.gatedMono(gate))
				.then(() -> {
					await().atMost(Duration.ofSeconds(20)).until(() -> !engine.getHeldLocks().isEmpty());
					long session = sessionId(client);
					try {
						Sessions.expire(client, server.getConnectString());
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
					// a new session: the lock died with the old one
					await().atMost(Duration.ofSeconds(20))
						.until(() -> client.getZookeeperClient().isConnected() && sessionId(client) != session);
					gate.tryEmitValue("emitted while the lock was lost");
				})
				.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(LockLostException.class)
					.hasMessageContaining("'shape'"))
				.verify(Duration.ofSeconds(30));
		});
	}

	private static long sessionId(CuratorFramework client) {
		try {
			return client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	static class Shapes {

		private final BodiesAtOnce bodies = new BodiesAtOnce();

		private final AtomicReference<LockHandle> lastLock = new AtomicReference<>();

		/** Read through the proxy: the proxy's own fields are not the target's. */
		public BodiesAtOnce bodies() {
			return this.bodies;
		}

		public LockHandle lastLock() {
			return this.lastLock.get();
		}

		@DistributedLock(path = "shape", waitTime = "30s")
		public CompletionStage<String> stage(CompletableFuture<String> gate) {
			return running(gate);
		}

		@DistributedLock(path = "shape", waitTime = "300ms")
		public CompletionStage<String> stageWithShortWait(CompletableFuture<String> gate) {
			return running(gate);
		}

		@DistributedLock(path = "shape", waitTime = "30s")
		public Mono<String> mono(int i) {
			this.bodies.enter();
			return Mono.delay(Duration.ofMillis(300)).map((tick) -> "mono " + i).doFinally((signal) -> this.bodies.exit());
		}

		@DistributedLock(path = "shape", waitTime = "30s")
		public Flux<Integer> flux(int i) {
			this.bodies.enter();
			return Flux.range(0, 3).delayElements(Duration.ofMillis(100)).map((n) -> i * 10 + n)
				.doFinally((signal) -> this.bodies.exit());
		}

		@DistributedLock(path = "shape", waitTime = "30s")
		public Mono<String> gatedMono(Sinks.One<String> gate) {
			return gate.asMono();
		}

		/** On a one-thread executor, returning before its work is done: the worker is reused at once. */
		@Async
		@DistributedLock(path = "shape", waitTime = "30s")
		public CompletableFuture<String> async(int i) {
			CompletableFuture<String> work = new CompletableFuture<>();
			running(work);
			completer.execute(() -> {
				simulateWork(100);
				work.complete("async " + i);
			});
			return work;
		}

		private CompletableFuture<String> running(CompletableFuture<String> gate) {
			this.lastLock.set(LockContext.currentLock().orElseThrow());
			this.bodies.enter();
			return gate.whenComplete((value, error) -> this.bodies.exit());
		}

		private static void simulateWork(long millis) {
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync(proxyTargetClass = true)
	static class ShapeConfiguration {

		@Bean
		Shapes shapes() {
			return new Shapes();
		}

		@Bean
		TaskExecutor taskExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(1);
			executor.setMaxPoolSize(1);
			executor.setThreadNamePrefix("one-worker-");
			executor.initialize();
			return executor;
		}

	}

}
