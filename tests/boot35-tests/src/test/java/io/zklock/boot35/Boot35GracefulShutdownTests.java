package io.zklock.boot35;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.test.BusyLock;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * zklock's graceful shutdown on Spring Boot 3.5: while the context closes, a new acquire is
 * refused, the work running under a lock finishes and releases it, and only then does the
 * context finish closing.
 */
@EmbeddedZooKeeper
@Timeout(60)
class Boot35GracefulShutdownTests {

	@Test
	void shouldRefuseNewLocksAndLetRunningWorkFinishWhileTheContextCloses(TestZooKeeper zookeeper) {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.run((context) -> {
				ILockByCurator locks = context.getBean(ILockByCurator.class);
				LockHandle running = locks.acquire("orders/1", LockMode.EXCLUSIVE);
				CountDownLatch closing = new CountDownLatch(1);
				CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> {
					closing.countDown();
					context.close();
				});
				assertThat(closing.await(10, TimeUnit.SECONDS)).isTrue();
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThatExceptionOfType(
						LockAcquisitionException.class)
					.isThrownBy(() -> locks.tryAcquire("orders/2", LockMode.EXCLUSIVE, Duration.ZERO))
					.withMessageContaining("the application is shutting down"));
				assertThat(closed).as("the context waits for the running work's lock").isNotDone();
				running.release();
				closed.get(10, TimeUnit.SECONDS);
				try (BusyLock rival = zookeeper.holdElsewhere("orders/1")) {
					assertThat(rival.fencingToken()).isGreaterThan(running.fencingToken());
				}
			});
	}

}
