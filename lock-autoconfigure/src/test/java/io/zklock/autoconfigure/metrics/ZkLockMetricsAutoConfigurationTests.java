package io.zklock.autoconfigure.metrics;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.LockEngine;
import io.zklock.metrics.HeldLocksMeterBinder;
import io.zklock.metrics.LockMetricsListener;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZkLockMetricsAutoConfiguration}: Boot's simple registry records the
 * meters of real locks on a real ZooKeeper server.
 */
@Timeout(60)
class ZkLockMetricsAutoConfigurationTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockMetricsAutoConfiguration.class,
				MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@AfterEach
	void stopOtherThread() throws InterruptedException {
		this.otherThread.shutdownNow();
		assertThat(this.otherThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void shouldRecordAcquireHoldAndHeldLocksGauge() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockMetricsListener.class).hasSingleBean(HeldLocksMeterBinder.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			LockEngine engine = context.getBean(LockEngine.class);
			assertThat(registry.get("zklock.locks.held").gauge().value()).isZero();
			ExclusiveLockByCurator locks = new ExclusiveLockByCurator(engine);
			try (LockHandle lock = locks.acquire(threadOwned("orders/42", LockMode.WRITE))) {
				assertThat(registry.get("zklock.locks.held").gauge().value()).isEqualTo(1);
				// a reentrant acquire is no new wait
				locks.acquire(threadOwned("orders/42", LockMode.READ)).close();
			}
			Timer acquire = registry.get("zklock.acquire")
				.tags("lock", "orders", "mode", "write", "outcome", "acquired")
				.timer();
			assertThat(acquire.count()).isEqualTo(1);
			assertThat(registry.get("zklock.held").tags("lock", "orders", "mode", "write").timer().count())
				.isEqualTo(1);
			assertThat(registry.get("zklock.locks.held").gauge().value()).isZero();
		});
	}

	@Test
	void shouldRegisterTheMetersAlertsWatchAtZeroWhenTheContextStarts() {
		this.contextRunner.withUserConfiguration(AnnotatedConfiguration.class).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			for (String mode : new String[] { "exclusive", "read" }) {
				Tags tags = Tags.of("lock", "orders", "mode", mode);
				assertThat(registry.get("zklock.lost").tags(tags).counter().count()).as(mode).isZero();
				assertThat(registry.get("zklock.in.doubt").tags(tags).counter().count()).as(mode).isZero();
				assertThat(registry.get("zklock.skipped").tags(tags).counter().count()).as(mode).isZero();
				assertThat(registry.get("zklock.hold.exceeded").tags(tags.and("outcome", "held")).counter().count())
					.as(mode)
					.isZero();
				assertThat(registry.get("zklock.confirmed").tags(tags).timer().count()).as(mode).isZero();
				assertThat(registry.get("zklock.acquire").tags(tags.and("outcome", "timeout")).timer().count())
					.as(mode)
					.isZero();
			}
			assertThat(registry.get("zklock.skipped").tags("lock", "reports", "mode", "semaphore").counter().count())
				.isZero();
			assertThat(registry.find("zklock.lost").tag("lock", "reports").counters()).as("a semaphore is never lost")
				.isEmpty();
		});
	}

	@Test
	void shouldRegisterTheMetersAlertsWatchAtZeroAtALocksFirstAcquire() {
		this.contextRunner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("zklock.lost").tag("lock", "invoices").counters()).isEmpty();
			new ExclusiveLockByCurator(context.getBean(LockEngine.class)).tryAcquire("invoices/7", LockMode.EXCLUSIVE,
					Duration.ofSeconds(5)).orElseThrow().close();
			Tags tags = Tags.of("lock", "invoices", "mode", "exclusive"); // named after the first segment
			assertThat(registry.get("zklock.lost").tags(tags).counter().count()).isZero();
			assertThat(registry.get("zklock.in.doubt").tags(tags).counter().count()).isZero();
			assertThat(registry.get("zklock.confirmed").tags(tags).timer().count()).isZero();
		});
	}

	private static LockRequest threadOwned(String path, LockMode mode) {
		return LockRequest.of(path, mode).named("orders").ownedBy(HoldOwner.THREAD).waitAtMost(Duration.ofSeconds(5));
	}

	@Test
	void shouldTagTimedOutAcquiresAndCountSkippedCalls() {
		this.contextRunner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			LockEngine engine = context.getBean(LockEngine.class);
			try (LockHandle lock = new ExclusiveLockByCurator(engine).tryAcquire("jobs/nightly", LockMode.EXCLUSIVE, Duration.ofSeconds(5))
				.orElseThrow()) {
				Optional<LockHandle> other = CompletableFuture
					.supplyAsync(() -> new ExclusiveLockByCurator(engine).tryAcquire("jobs/nightly", LockMode.EXCLUSIVE,
							Duration.ofMillis(100)), this.otherThread)
					.get(20, TimeUnit.SECONDS);
				assertThat(other).isEmpty();
			}
			// the @DistributedLock advisor tells every SkippedCallListener bean; the meters are one
			SkippedCall skipped = new SkippedCall("jobs/nightly", "jobs", LockMode.EXCLUSIVE, Duration.ZERO, "Jobs.run()");
			context.getBeanProvider(SkippedCallListener.class).orderedStream()
				.forEach((listener) -> listener.onSkipped(skipped));
			Timer timedOut = registry.get("zklock.acquire")
				.tags("lock", "jobs", "mode", "exclusive", "outcome", "timeout")
				.timer();
			assertThat(timedOut.count()).isEqualTo(1);
			assertThat(timedOut.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(100);
			assertThat(registry.get("zklock.skipped").tags("lock", "jobs", "mode", "exclusive").counter().count())
				.isEqualTo(1);
		});
	}

	@Test
	void shouldTagInterruptedAcquiresAsErrors() {
		this.contextRunner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			LockEngine engine = context.getBean(LockEngine.class);
			try (LockHandle lock = new ExclusiveLockByCurator(engine).tryAcquire("jobs/interrupted", LockMode.EXCLUSIVE, Duration.ofSeconds(5))
				.orElseThrow()) {
				CompletableFuture<?> waiter = CompletableFuture.runAsync(() -> {
					Thread.currentThread().interrupt();
					new ExclusiveLockByCurator(engine).tryAcquire("jobs/interrupted", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
				}, this.otherThread);
				assertThat(waiter).failsWithin(Duration.ofSeconds(20));
			}
			assertThat(registry.get("zklock.acquire")
				.tags("lock", "jobs", "mode", "exclusive", "outcome", "error")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void shouldNotCreateMetricsWithoutMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockMetricsAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockMetricsListener.class)
				.doesNotHaveBean(HeldLocksMeterBinder.class));
	}

	@Test
	void shouldBackOffCleanlyWithoutMicrometer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockMetricsAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(LockMetricsListener.class)
					.doesNotHaveBean(HeldLocksMeterBinder.class);
				LockEngine engine = context.getBean(LockEngine.class);
				new ExclusiveLockByCurator(engine).tryAcquire("plain", LockMode.EXCLUSIVE, Duration.ofSeconds(5)).orElseThrow().close();
			});
	}

	@Test
	void shouldBackOffWhenUserDefinesListener() {
		this.contextRunner.withUserConfiguration(CustomListenerConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LockMetricsListener.class).hasBean("customLockMetricsListener");
		});
	}

	@Test
	void shouldNotCreateMetricsWhenZkLockIsDisabled() {
		this.contextRunner.withPropertyValues("zklock.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockMetricsListener.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedConfiguration {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders {

		@DistributedLock(path = "orders", key = "#id")
		public void ship(String id) {
		}

		@DistributedLock(path = "orders", key = "#id", mode = LockMode.READ)
		public void show(String id) {
		}

		@DistributedSemaphore(path = "reports", permits = 2)
		public void report() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	private static final class CustomListenerConfiguration {

		@Bean
		LockMetricsListener customLockMetricsListener() {
			return new LockMetricsListener(new SimpleMeterRegistry());
		}

	}

}
