package io.zklock.boot35;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.HoldExceededException;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockListener;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockTarget;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code holdAtMost}'s policies past the bound on Spring Boot 3.5 (Spring Framework 6.2's AOP):
 * {@code INTERRUPT} interrupts the holder thread; {@code CANCEL} fails a
 * {@code CompletableFuture} method's caller at once and keeps the lock until the method's own
 * stage completes. The Boot 4 test ({@code DistributedLockHoldAtMostTests}) covers every case.
 */
@EmbeddedZooKeeper
@Timeout(90)
@ExtendWith(OutputCaptureExtension.class)
class Boot35HoldAtMostPoliciesTests {

	private static ApplicationContextRunner context(TestZooKeeper zookeeper) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LockedMethodsAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.withPropertyValues("zklock.hold-after-cancel=1s")
			.withBean(Jobs.class)
			.withBean(Breaches.class);
	}

	@Test
	void shouldInterruptTheHolderThreadWhenAskedTo(TestZooKeeper zookeeper, CapturedOutput output) {
		context(zookeeper).run((context) -> {
			assertThat(context.getBean(Jobs.class).interruptible()).isEqualTo("interrupted");
			// the holder is interrupted first, then the WARN is written
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(output)
				.contains("; onHoldExceeded = INTERRUPT: interrupted the holder thread."));
			assertThat(otherCanLock(context, "boot35-bounded/interruptible")).isTrue();
		});
	}

	@Test
	void shouldFailTheCallersStageWhenAskedToAndKeepTheLockUntilTheMethodsOwnStageCompletes(TestZooKeeper zookeeper,
			CapturedOutput output) {
		context(zookeeper).run((context) -> {
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletableFuture<String> call = context.getBean(Jobs.class).stage(pending);
			assertThat(call).failsWithin(Duration.ofSeconds(10))
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOf(HoldExceededException.class)
				.withMessageStartingWith("The EXCLUSIVE lock on 'boot35-bounded/stage' (fencing token ")
				.withMessageEndingWith(") of Jobs.stage(CompletableFuture) was held past holdAtMost 200ms, so zklock "
						+ "cancelled the call (onHoldExceeded = CANCEL)");
			assertThat(pending).as("the method's own stage, the only sign of the end of its work").isNotDone();
			// past zklock.hold-after-cancel (1s): the work has not ended, so the lock stays
			await().during(Duration.ofMillis(1500))
				.atMost(Duration.ofSeconds(10))
				.until(() -> !otherCanLock(context, "boot35-bounded/stage"));
			Breaches breaches = context.getBean(Breaches.class);
			assertThat(breaches.events).singleElement().satisfies((breach) -> assertThat(breach.released()).isFalse());
			pending.complete("late");
			await().atMost(Duration.ofSeconds(10)).until(() -> otherCanLock(context, "boot35-bounded/stage"));
			assertThat(breaches.events).hasSize(1);
			assertThat(output).contains("past its holdAtMost of 200ms. onHoldExceeded = CANCEL: zklock failed the "
					+ "caller's stage with HoldExceededException; the lock goes when the method's own stage completes, "
					+ "since cancelling a CompletableFuture stops nothing behind it");
		});
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

		@DistributedLock(path = "boot35-bounded/interruptible", holdAtMost = "200ms",
				onHoldExceeded = OnHoldExceeded.INTERRUPT)
		public String interruptible() {
			try {
				Thread.sleep(TimeUnit.SECONDS.toMillis(30));
				return "slept";
			}
			catch (InterruptedException ex) {
				return "interrupted";
			}
		}

		@DistributedLock(path = "boot35-bounded/stage", holdAtMost = "200ms", onHoldExceeded = OnHoldExceeded.CANCEL)
		public CompletableFuture<String> stage(CompletableFuture<String> pending) {
			return pending;
		}

	}

	/** One {@link LockListener#onHoldExceeded} event. */
	record Breach(LockTarget lock, boolean released) {
	}

	static class Breaches implements LockListener {

		final List<Breach> events = new CopyOnWriteArrayList<>();

		@Override
		public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
				boolean released) {
			this.events.add(new Breach(lock, released));
		}

	}

}
