package io.zklock.annotation;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link DistributedLock} holds its lock until the work of methods that return
 * before it is done has completed: {@link CompletionStage}, Reactor {@link Mono} and
 * {@link Flux}, and {@link Async} methods.
 */
@Timeout(60)
@Tag("slow")
class DistributedLockAsyncTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(AsyncConfiguration.class);

	@Test
	void shouldHoldTheLockOfAStageUntilItCompletesAndReleaseOnTheCompletingThread() {
		this.contextRunner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			AtomicReference<String> releasedOn = new AtomicReference<>();
			context.getBean(LockEngine.class).addListener(new LockListener() {
				@Override
				public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
					if (lock.lockPath().equals("stage")) {
						releasedOn.set(Thread.currentThread().getName());
					}
				}
			});
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletionStage<String> stage = reports.stage(pending);
			assertThat(otherThreadCanLock(context, "stage")).as("held while the stage is pending").isFalse();
			Thread completer = new Thread(() -> pending.complete("done"), "stage-completer");
			completer.start();
			assertThat(stage.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("done");
			assertThat(releasedOn.get()).isEqualTo("stage-completer");
			assertThat(otherThreadCanLock(context, "stage")).isTrue();
		});
	}

	@Test
	void shouldNeitherCancelTheMethodsStageNorReleaseWhenTheCallerCancelsItsStage() {
		this.contextRunner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletableFuture<String> returned = reports.stage(pending).toCompletableFuture();
			assertThat(returned).isNotSameAs(pending);
			returned.cancel(true);
			assertThat(pending).isNotDone();
			assertThat(otherThreadCanLock(context, "stage")).as("held while the method's stage is pending").isFalse();
			pending.complete("done");
			assertThat(otherThreadCanLock(context, "stage")).isTrue();
		});
	}

	@Test
	void shouldReleaseTheLockOfAFailedStage() {
		this.contextRunner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletionStage<String> stage = reports.stage(pending);
			pending.completeExceptionally(new IllegalStateException("boom"));
			assertThat(stage.toCompletableFuture()).failsWithin(Duration.ofSeconds(5));
			assertThat(otherThreadCanLock(context, "stage")).isTrue();
		});
	}

	@Test
	void shouldTakeTheLockOfAMonoOnSubscriptionAndReleaseOnCompletion() {
		this.contextRunner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			Mono<String> mono = reports.mono();
			assertThat(reports.bodyRuns()).as("the body runs on subscription, under the lock").isZero();
			assertThat(otherThreadCanLock(context, "reactive")).as("not taken before subscription").isTrue();
			StepVerifier.create(mono).expectNext("held=true").verifyComplete();
			assertThat(otherThreadCanLock(context, "reactive")).isTrue();
		});
	}

	@Test
	void shouldReleaseTheLockOfAFluxOnErrorAndOnCancelWithoutAHoldAfterCancel() {
		this.contextRunner.withPropertyValues("zklock.hold-after-cancel=0").run((context) -> {
			Reports reports = context.getBean(Reports.class);
			StepVerifier.create(reports.failingFlux()).expectNext(1).verifyErrorMessage("boom");
			assertThat(otherThreadCanLock(context, "reactive")).isTrue();
			StepVerifier.create(reports.endlessFlux()).expectNext(0L).thenCancel().verify(Duration.ofSeconds(10));
			org.awaitility.Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> otherThreadCanLock(context, "reactive"));
		});
	}

	@Test
	void shouldRunAnAsyncMethodUnderTheLockOnTheExecutorThread() {
		this.contextRunner.run((context) -> {
			Reports reports = context.getBean(Reports.class);
			String result = reports.async().get(10, TimeUnit.SECONDS);
			assertThat(result).startsWith("held=true on ").doesNotContain(Thread.currentThread().getName());
			assertThat(otherThreadCanLock(context, "async")).isTrue();
		});
	}

	private static boolean otherThreadCanLock(org.springframework.context.ApplicationContext context, String path)
			throws Exception {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		return CompletableFuture.supplyAsync(() -> locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
			.map((lock) -> {
				lock.release();
				return true;
			})
			.orElse(false)).get(10, TimeUnit.SECONDS);
	}

	static class Reports {

		private final ILockByCurator locks;

		private volatile int bodyRuns;

		Reports(ILockByCurator locks) {
			this.locks = locks;
		}

		@DistributedLock(path = "stage")
		public CompletionStage<String> stage(CompletableFuture<String> pending) {
			return pending;
		}

		@DistributedLock(path = "reactive")
		public Mono<String> mono() {
			this.bodyRuns++;
			return Mono.fromCallable(() -> "held=" + !otherCanLock("reactive"));
		}

		public int bodyRuns() {
			return this.bodyRuns;
		}

		@DistributedLock(path = "reactive")
		public Flux<Integer> failingFlux() {
			return Flux.just(1).concatWith(Mono.error(new IllegalStateException("boom")));
		}

		@DistributedLock(path = "reactive")
		public Flux<Long> endlessFlux() {
			return Flux.interval(Duration.ofMillis(10));
		}

		@Async
		@DistributedLock(path = "async")
		public CompletableFuture<String> async() {
			return CompletableFuture
				.completedFuture("held=" + !otherCanLock("async") + " on " + Thread.currentThread().getName());
		}

		private boolean otherCanLock(String path) {
			try {
				return CompletableFuture.supplyAsync(() -> this.locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
					.map((lock) -> {
						lock.release();
						return true;
					})
					.orElse(false)).get(10, TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

		@Bean
		Reports reports(ILockByCurator locks) {
			return new Reports(locks);
		}

	}

}
