package io.zklock.annotation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.zklock.interceptor.LockReleaseScheduler;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import io.zklock.metrics.LockMetricsListener;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLock#holdAtMost()}: a call that holds its lock past the bound is reported
 * (a WARN naming the lock, the method and the holder thread with its stack; a listener event; the
 * {@code zklock.hold.exceeded} meter) and, by policy, interrupted or cancelled, and its lock is
 * never released while its work may run; the default bound and policy come from properties;
 * invalid values fail start-up naming the method or property and the value as written.
 */
@Timeout(90)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class DistributedLockHoldAtMostTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(BoundedConfiguration.class)
		.withPropertyValues("zklock.hold-after-cancel=1s");

	@Test
	void shouldReportAHoldPastItsBoundWithTheHolderThreadsStackAndKeepTheLock(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<Void> call = CompletableFuture.runAsync(jobs::overrun);
			Breaches breaches = context.getBean(Breaches.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> !breaches.events.isEmpty());
			assertThat(otherCanLock(context, "bounded/overrun")).as("kept past its bound").isFalse();
			assertThat(breaches.events).singleElement().satisfies((event) -> {
				assertThat(event.lock()).isEqualTo(new LockTarget("bounded/overrun", "bounded/overrun", LockMode.EXCLUSIVE));
				assertThat(event.bound()).isEqualTo(Duration.ofMillis(300));
				assertThat(event.heldFor()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
				assertThat(event.released()).isFalse();
			});
			jobs.finish();
			call.get(10, TimeUnit.SECONDS);
			assertThat(otherCanLock(context, "bounded/overrun")).as("released when the call ended").isTrue();
			assertThat(context.getBean(MeterRegistry.class)
				.get(LockMetricsListener.HOLD_EXCEEDED)
				.tags("lock", "bounded/overrun", "mode", "exclusive", "outcome", "held")
				.counter()
				.count()).isEqualTo(1);
			assertThat(output).contains("The EXCLUSIVE lock on 'bounded/overrun' (fencing token ")
				.contains(") of Jobs.overrun() has been held for ")
				.contains("past its holdAtMost of 300ms. zklock keeps the lock until the call ends, since a lock is "
						+ "never released while its work may still run; onHoldExceeded = WARN: nothing more is done.")
				.contains("HolderStack: Holder thread '")
				.contains("was running Jobs.overrun() at")
				.contains("io.zklock.annotation.DistributedLockHoldAtMostTests$Jobs.overrun(DistributedLockHoldAtMostTests.java");
		});
	}

	@Test
	void shouldReportAHandleOfTheLockApiPastItsBoundToTheListenersAndTheMeter(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			LockHandle handle = locks
				.acquire(LockRequest.of("bounded/api", LockMode.EXCLUSIVE).holdAtMost(Duration.ofMillis(200)));
			Breaches breaches = context.getBean(Breaches.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> !breaches.events.isEmpty());
			assertThat(breaches.events).singleElement().satisfies((event) -> {
				assertThat(event.lock()).isEqualTo(new LockTarget("bounded/api", "bounded", LockMode.EXCLUSIVE));
				assertThat(event.bound()).isEqualTo(Duration.ofMillis(200));
				assertThat(event.released()).isFalse();
			});
			assertThat(otherCanLock(context, "bounded/api")).as("kept past its bound").isFalse();
			assertThat(context.getBean(MeterRegistry.class)
				.get(LockMetricsListener.HOLD_EXCEEDED)
				.tags("lock", "bounded", "mode", "exclusive", "outcome", "held")
				.counter()
				.count()).isEqualTo(1);
			assertThat(output).contains("The EXCLUSIVE lock on 'bounded/api' (fencing token " + handle.fencingToken()
					+ ") has been held for ")
				.contains("past its holdAtMost of 200ms. zklock keeps it until its handle is released");
			handle.release();
			assertThat(otherCanLock(context, "bounded/api")).isTrue();
		});
	}

	@Test
	void shouldTimeAnAnnotatedBoundOnTheEnginesOneHoldBoundThread() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<Void> call = CompletableFuture.runAsync(jobs::overrun);
			Breaches breaches = context.getBean(Breaches.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> !breaches.events.isEmpty());
			List<String> threads = threadNames();
			assertThat(threads).as("one timer for every hold bound").containsOnlyOnce("zklock-hold-bound");
			assertThat(threads).as("no release thread times a bound")
				.noneMatch((name) -> name.startsWith("zklock-release-"));
			jobs.finish();
			call.get(10, TimeUnit.SECONDS);
		});
	}

	/** The names of the live threads, from a thread dump. */
	private static List<String> threadNames() {
		return Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(false, false))
			.map(ThreadInfo::getThreadName)
			.toList();
	}

	@Test
	void shouldNotReportACallThatEndsWithinItsBound(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			context.getBean(Jobs.class).quick();
			assertThat(context.getBean(LockReleaseScheduler.class).pendingCount()).as("its check is dropped").isZero();
			assertThat(context.getBean(Breaches.class).events).isEmpty();
			assertThat(output).doesNotContain("holdAtMost");
		});
	}

	@Test
	void shouldInterruptTheHolderThreadWhenAskedTo(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.interruptible()).isEqualTo("interrupted");
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output)
				.contains("; onHoldExceeded = INTERRUPT: interrupted the holder thread."));
			assertThat(otherCanLock(context, "bounded/interruptible")).isTrue();
		});
	}

	@Test
	void shouldFailTheCallersStageWhenAskedToAndKeepTheLockUntilTheMethodsOwnStageCompletes(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletableFuture<String> call = jobs.stage(pending);
			assertThat(call).failsWithin(Duration.ofSeconds(10))
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOf(HoldExceededException.class)
				.withMessageStartingWith("The EXCLUSIVE lock on 'bounded/stage' (fencing token ")
				.withMessageEndingWith(") of Jobs.stage(CompletableFuture) was held past holdAtMost 200ms, so zklock "
						+ "cancelled the call (onHoldExceeded = CANCEL)");
			assertThat(pending).as("the method's own stage, the only sign of the end of its work").isNotDone();
			// past zklock.hold-after-cancel (1s): the work has not ended, so the lock stays
			await("kept while the method's stage runs").during(Duration.ofMillis(1500))
				.atMost(Duration.ofSeconds(10))
				.until(() -> !otherCanLock(context, "bounded/stage"));
			Breaches breaches = context.getBean(Breaches.class);
			assertThat(breaches.events).singleElement().satisfies((breach) -> assertThat(breach.released()).isFalse());
			pending.complete("late");
			await().atMost(Duration.ofSeconds(10)).until(() -> otherCanLock(context, "bounded/stage"));
			assertThat(breaches.events).hasSize(1);
			assertThat(output).contains("past its holdAtMost of 200ms. onHoldExceeded = CANCEL: zklock failed the "
					+ "caller's stage with HoldExceededException; the lock goes when the method's own stage completes, "
					+ "since cancelling a CompletableFuture stops nothing behind it");
		});
	}

	@Test
	void shouldFailAMonosCallerAndKeepTheLockUntilTheMonoEndsAndCancelAFluxWhenAskedTo() {
		this.contextRunner.withPropertyValues("zklock.hold-after-cancel=0").run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<String> pending = new CompletableFuture<>();
			StepVerifier.create(jobs.mono(pending))
				.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(HoldExceededException.class)
					.hasMessageContaining("'bounded/mono'"))
				.verify(Duration.ofSeconds(10));
			assertThat(pending).as("a cancel reaches no future under a Mono").isNotDone();
			assertThat(otherCanLock(context, "bounded/mono")).as("kept while the Mono's future runs").isFalse();
			pending.complete("late");
			StepVerifier.create(jobs.flux())
				.thenConsumeWhile((tick) -> true)
				.expectError(HoldExceededException.class)
				.verify(Duration.ofSeconds(10));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> otherCanLock(context, "bounded/mono") && otherCanLock(context, "bounded/flux"));
		});
	}

	@Test
	void shouldTakeTheBoundAndThePolicyFromPropertiesWhenTheAnnotationSetsNone(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("zklock.default-hold-at-most=200ms", "zklock.on-hold-exceeded=interrupt")
			.run((context) -> {
				assertThat(context.getBean(Jobs.class).unbounded()).isEqualTo("interrupted");
				// the holder is interrupted first, then the WARN is written
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output)
					.contains("past its holdAtMost of 200ms")
					.contains("; onHoldExceeded = INTERRUPT: interrupted the holder thread."));
			});
	}

	@Test
	void shouldFailStartUpForAnUnparsableOrZeroBound() {
		lockingContext().withUserConfiguration(UnparsableBoundConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(invalidAnnotation(context.getStartupFailure()))
				.hasMessage("@DistributedLock on UnparsableBound.work() has an invalid holdAtMost 'a while': it is not "
						+ "a duration. Write holdAtMost as a duration such as '10m', '30s' or 'PT1H', or leave it empty "
						+ "for zklock.default-hold-at-most.");
		});
		lockingContext().withUserConfiguration(ZeroBoundConfiguration.class)
			.withPropertyValues("job.bound=0s")
			.run((context) -> assertThat(invalidAnnotation(context.getStartupFailure()))
				.hasMessage("@DistributedLock on ZeroBound.work() has a zero holdAtMost '${job.bound}' (resolved to "
						+ "'0s'): no call could keep within it. Use a positive duration such as '10m', or leave it "
						+ "empty for zklock.default-hold-at-most."));
	}

	@Test
	void shouldFailStartUpForABoundShorterThanTheShortestHoldOrTwoPolicies() {
		lockingContext().withUserConfiguration(ContradictoryBoundConfiguration.class).run((context) -> {
			assertThat(invalidAnnotation(context.getStartupFailure()))
				.hasMessage("@DistributedLock on ContradictoryBound.work() has a holdAtMost '10s' shorter than its "
						+ "holdAtLeast (30s): every call would pass it. Make holdAtMost longer than holdAtLeast, or "
						+ "remove one of them.");
		});
		lockingContext().withUserConfiguration(TwoPoliciesConfiguration.class).run((context) -> {
			assertThat(invalidAnnotation(context.getStartupFailure()))
				.hasMessage("The @DistributedLock annotations on TwoPolicies.work() disagree on onHoldExceeded "
						+ "[INTERRUPT, CANCEL]. Give them one onHoldExceeded (or set it on one only): their locks are "
						+ "held together.");
		});
	}

	@Test
	void shouldFailStartUpForInvalidProperties() {
		lockingContext().withPropertyValues("zklock.hold-after-cancel=-1s").run((context) -> {
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property zklock.hold-after-cancel with value '-1s' is invalid: it is negative; set a "
						+ "duration such as '10s', or '0' to release at once when a call is cancelled");
		});
		lockingContext().withPropertyValues("zklock.default-hold-at-most=0").run((context) -> {
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessage("Property zklock.default-hold-at-most with value '0' is invalid: it is not positive; set a "
						+ "duration such as '10m', or leave it unset for no bound");
		});
		lockingContext().withPropertyValues("zklock.on-hold-exceeded=default").run((context) -> {
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessage("Property zklock.on-hold-exceeded with value 'default' is invalid: 'default' stands for "
						+ "this property on the annotation; set warn, interrupt or cancel");
		});
	}

	/** The annotation problem behind a start-up failure. */
	private static InvalidLockAnnotationException invalidAnnotation(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidLockAnnotationException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("No InvalidLockAnnotationException behind " + failure, failure);
	}

	/** Whether another thread of the application can take the lock now (and gives it back). */
	private static boolean otherCanLock(ApplicationContext context, String path) {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		return CompletableFuture.supplyAsync(() -> locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
			.map((lock) -> {
				lock.release();
				return true;
			})
			.orElse(false)).orTimeout(10, TimeUnit.SECONDS).join();
	}

	static class Jobs {

		private final CountDownLatch finish = new CountDownLatch(1);

		/** Runs past its bound until {@link #finish()}, ignoring interrupts. */
		@DistributedLock(path = "bounded/overrun", holdAtMost = "300ms")
		public void overrun() {
			boolean done = false;
			while (!done) {
				try {
					done = this.finish.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					// work that does not stop for an interrupt
				}
			}
		}

		void finish() {
			this.finish.countDown();
		}

		@DistributedLock(path = "bounded/quick", holdAtMost = "10s")
		public void quick() {
		}

		@DistributedLock(path = "bounded/interruptible", holdAtMost = "200ms",
				onHoldExceeded = OnHoldExceeded.INTERRUPT)
		public String interruptible() {
			return waitForInterrupt();
		}

		@DistributedLock(path = "bounded/unbounded")
		public String unbounded() {
			return waitForInterrupt();
		}

		@DistributedLock(path = "bounded/stage", holdAtMost = "200ms", onHoldExceeded = OnHoldExceeded.CANCEL)
		public CompletableFuture<String> stage(CompletableFuture<String> pending) {
			return pending;
		}

		@DistributedLock(path = "bounded/mono", holdAtMost = "200ms", onHoldExceeded = OnHoldExceeded.CANCEL)
		public Mono<String> mono(CompletableFuture<String> pending) {
			return Mono.fromFuture(pending, true);
		}

		@DistributedLock(path = "bounded/flux", holdAtMost = "200ms", onHoldExceeded = OnHoldExceeded.CANCEL)
		public Flux<Long> flux() {
			return Flux.interval(Duration.ofMillis(20));
		}

		private static String waitForInterrupt() {
			try {
				Thread.sleep(TimeUnit.SECONDS.toMillis(30));
				return "slept";
			}
			catch (InterruptedException ex) {
				return "interrupted";
			}
		}

	}

	/** One {@link LockListener#onHoldExceeded} event. */
	record Breach(LockTarget lock, Duration heldFor, Duration bound, boolean released) {
	}

	static class Breaches implements LockListener {

		final List<Breach> events = new CopyOnWriteArrayList<>();

		@Override
		public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
				boolean released) {
			this.events.add(new Breach(lock, heldFor, bound, released));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BoundedConfiguration {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		Breaches breaches() {
			return new Breaches();
		}

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		LockMetricsListener lockMetricsListener(MeterRegistry registry) {
			return new LockMetricsListener(registry);
		}

	}

	static class UnparsableBound {

		@DistributedLock(path = "bounded/bad", holdAtMost = "a while")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnparsableBoundConfiguration {

		@Bean
		UnparsableBound unparsableBound() {
			return new UnparsableBound();
		}

	}

	static class ZeroBound {

		@DistributedLock(path = "bounded/zero", holdAtMost = "${job.bound}")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ZeroBoundConfiguration {

		@Bean
		ZeroBound zeroBound() {
			return new ZeroBound();
		}

	}

	static class ContradictoryBound {

		@DistributedLock(path = "bounded/contradictory", holdAtLeast = "30s", holdAtMost = "10s")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ContradictoryBoundConfiguration {

		@Bean
		ContradictoryBound contradictoryBound() {
			return new ContradictoryBound();
		}

	}

	static class TwoPolicies {

		@DistributedLock(path = "bounded/a", holdAtMost = "1m", onHoldExceeded = OnHoldExceeded.INTERRUPT)
		@DistributedLock(path = "bounded/b", holdAtMost = "2m", onHoldExceeded = OnHoldExceeded.CANCEL)
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoPoliciesConfiguration {

		@Bean
		TwoPolicies twoPolicies() {
			return new TwoPolicies();
		}

	}

}
