package io.zklock.interceptor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.ZkAnnotationTest;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A duration too long to count in nanoseconds (more than 292 years, such as
 * {@code waitTime = "300000d"}) means "without limit", as it does in the lock API, whose
 * deadlines saturate: a wait that never runs out, a hold kept until the application stops.
 * Before, a semaphore's wait, a {@code holdAtLeast} and
 * {@code zklock.hold-after-cancel} of that length threw {@code ArithmeticException: long
 * overflow} at every call.
 */
@Timeout(60)
class OverlongDurationTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(OverlongConfiguration.class);

	@Test
	void shouldWaitWithoutLimitForALockWhoseWaitIsTooLongToCount() {
		this.contextRunner.withPropertyValues("zklock.default-wait-time=300000d").run((context) -> {
			Overlong overlong = context.getBean(Overlong.class);
			assertThat(overlong.lock()).isEqualTo("ran");
			assertThat(overlong.lockWithTheDefaultWait()).isEqualTo("ran");
			assertWaitsForTheHolder(context, "overlong/lock", () -> overlong.lock());
		});
	}

	@Test
	void shouldWaitWithoutLimitForAPermitWhoseWaitIsTooLongToCount() {
		this.contextRunner.run((context) -> {
			Overlong overlong = context.getBean(Overlong.class);
			assertThat(overlong.permit()).isEqualTo("ran");
		});
	}

	@Test
	void shouldKeepTheLockUntilTheApplicationStopsForAHoldAtLeastTooLongToCount() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(Overlong.class).holdForever()).isEqualTo("ran");
			assertThat(otherCanLock(context, "overlong/hold")).isFalse();
			assertThat(context.getBean(LockReleaseScheduler.class).pendingCount()).isEqualTo(1);
		});
		this.contextRunner.run((context) -> assertThat(otherCanLock(context, "overlong/hold")).isTrue());
	}

	@Test
	void shouldKeepACancelledCallsLockUntilTheApplicationStopsForAHoldAfterCancelTooLongToCount() {
		this.contextRunner.withPropertyValues("zklock.hold-after-cancel=300000d").run((context) -> {
			StepVerifier.create(context.getBean(Overlong.class).endless())
				.expectNext(0L)
				.thenCancel()
				.verify(Duration.ofSeconds(10));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> context.getBean(LockReleaseScheduler.class).pendingCount() == 1);
			assertThat(otherCanLock(context, "overlong/flux")).isFalse();
		});
		this.contextRunner.run((context) -> assertThat(otherCanLock(context, "overlong/flux")).isTrue());
	}

	/** A call started while another thread holds the lock runs once the holder lets go. */
	private static void assertWaitsForTheHolder(ApplicationContext context, String path, Runnable call)
			throws Exception {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		LockHandle holder = locks.acquire(path, LockMode.EXCLUSIVE);
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
			started.countDown();
			call.run();
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
		holder.release();
		waiting.get(10, TimeUnit.SECONDS);
	}

	private static boolean otherCanLock(ApplicationContext context, String path) throws Exception {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		return CompletableFuture.supplyAsync(() -> locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
			.map((lock) -> {
				lock.release();
				return true;
			})
			.orElse(false)).get(10, TimeUnit.SECONDS);
	}

	static class Overlong {

		@DistributedLock(path = "overlong/lock", waitTime = "300000d")
		public String lock() {
			return "ran";
		}

		@DistributedLock(path = "overlong/default")
		public String lockWithTheDefaultWait() {
			return "ran";
		}

		@DistributedSemaphore(path = "overlong/permit", permits = 2, waitTime = "300000d")
		public String permit() {
			return "ran";
		}

		@DistributedLock(path = "overlong/hold", holdAtLeast = "300000d")
		public String holdForever() {
			return "ran";
		}

		@DistributedLock(path = "overlong/flux")
		public Flux<Long> endless() {
			return Flux.interval(Duration.ofMillis(10));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OverlongConfiguration {

		@Bean
		Overlong overlong() {
			return new Overlong();
		}

	}

}
