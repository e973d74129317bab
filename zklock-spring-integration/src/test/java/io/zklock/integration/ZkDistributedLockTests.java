package io.zklock.integration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.integration.autoconfigure.ZkLockRegistryAutoConfiguration;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockMode;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import io.zklock.metrics.LockMetricsListener;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Spring Integration 7's {@link DistributedLock} on {@link ZkLockRegistry}, in an application
 * with the auto-configured registry and the meters, against a real server and a second instance
 * (its own session): {@code ttl} bounds the hold, which is reported when it passes (WARN with
 * the holder's stack, {@code onHoldExceeded}, {@code zklock.hold.exceeded}) and never released
 * for it. Runs on Spring Integration 7 only (left out of the test jar that the Boot 3.5 line
 * runs, whose Spring Integration 6.5 has no {@code DistributedLock}).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class ZkDistributedLockTests {

	private static TestingServer server;

	private static CuratorFramework otherClient;

	/** The second instance: its own client and session, on the auto-configured lock root. */
	private static ZkLockRegistry otherInstance;

	@BeforeAll
	static void start() throws Exception {
		server = new TestingServer(true);
		otherClient = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace("zklock")
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		otherClient.start();
		otherInstance = new ZkLockRegistry(new ExclusiveLockByCurator(otherClient, "/locks"));
	}

	@AfterAll
	static void stop() throws Exception {
		otherClient.close();
		server.close();
	}

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockRegistryAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
		.withUserConfiguration(Listening.class);

	@Test
	void shouldHandOutDistributedLocksWithSpringIntegration7() {
		this.contextRunner.run((context) -> {
			LockRegistry<?> registry = context.getBean(LockRegistry.class);
			assertThat(registry.obtain("orders")).isInstanceOf(DistributedLock.class)
				.isInstanceOf(FencedDistributedLock.class);
		});
	}

	@Test
	void shouldRunTheDocumentedSample() {
		this.contextRunner.run((context) -> {
			ZkLockRegistry registry = context.getBean(ZkLockRegistry.class);
			Report report = new Report();
			// tag::distributed-lock[]
			FencedDistributedLock lock = (FencedDistributedLock) registry.obtain("nightly-report");
			if (lock.tryLock(Duration.ofSeconds(5), Duration.ofMinutes(30))) {   // wait 5 s at most, hold 30 min at most
				try {
					report.run(lock.fencingToken());
				}
				finally {
					lock.unlock();
				}
			}
			// end::distributed-lock[]
			assertThat(report.token).isPositive();
		});
	}

	static class Report {

		long token;

		void run(long fencingToken) {
			this.token = fencingToken;
		}

	}

	@Test
	void shouldReportAHoldPastItsTtlWithTheHoldersStackAndKeepTheLock(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			FencedDistributedLock lock = (FencedDistributedLock) context.getBean(ZkLockRegistry.class)
				.obtain("nightly-report");
			lock.lock(Duration.ofMillis(300));
			long token = lock.fencingToken();
			Breaches breaches = context.getBean(Breaches.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> !breaches.events.isEmpty());
			assertThat(breaches.events).singleElement().satisfies((breach) -> {
				assertThat(breach.lock()).isEqualTo(new LockTarget("spring-integration/nightly-report",
						"spring-integration", LockMode.EXCLUSIVE));
				assertThat(breach.fencingToken()).isEqualTo(token);
				assertThat(breach.bound()).isEqualTo(Duration.ofMillis(300));
				assertThat(breach.heldFor()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
				assertThat(breach.released()).isFalse();
			});
			assertThat(lock.isHeldByCurrentThread()).as("still held past its ttl").isTrue();
			assertThat(otherInstance.obtain("nightly-report").tryLock()).as("the other instance").isFalse();
			assertThat(context.getBean(MeterRegistry.class)
				.get(LockMetricsListener.HOLD_EXCEEDED)
				.tags("lock", "spring-integration", "mode", "exclusive", "outcome", "held")
				.counter()
				.count()).isEqualTo(1);
			assertThat(output)
				.contains("The EXCLUSIVE lock on 'spring-integration/nightly-report' (fencing token " + token
						+ ") has been held for ")
				.contains("past its holdAtMost of 300ms. zklock keeps it until its handle is released")
				.contains("Holder thread '" + Thread.currentThread().getName() + "'")
				.contains("at app//" + ZkDistributedLockTests.class.getName() + ".lambda$");
			lock.unlock();
			FencedLock next = otherInstance.obtain("nightly-report");
			assertThat(next.tryLock(10, TimeUnit.SECONDS)).as("the other instance after the unlock").isTrue();
			next.unlock();
		});
	}

	@Test
	void shouldTryLockWithATtlWaitingAtMostTheWaitTime() {
		this.contextRunner.run((context) -> {
			FencedDistributedLock lock = (FencedDistributedLock) context.getBean(ZkLockRegistry.class).obtain("orders");
			FencedLock other = otherInstance.obtain("orders");
			other.lock();
			assertThat(lock.tryLock(Duration.ofMillis(200), Duration.ofMinutes(1))).as("held by the other instance")
				.isFalse();
			other.unlock();
			assertThat(lock.tryLock(Duration.ofSeconds(10), Duration.ofMinutes(1))).isTrue();
			assertThat(lock.tryLock(Duration.ZERO, Duration.ofMinutes(1))).as("re-entered").isTrue();
			lock.unlock();
			lock.unlock();
			assertThat(lock.isHeldByCurrentThread()).isFalse();
			assertThat(context.getBean(Breaches.class).events).as("unlocked within its ttl").isEmpty();
		});
	}

	@Test
	void shouldBoundAReentrantEntryFromItsOwnGrant() {
		this.contextRunner.run((context) -> {
			FencedDistributedLock lock = (FencedDistributedLock) context.getBean(ZkLockRegistry.class).obtain("batch");
			lock.lock();
			lock.lock(Duration.ofMillis(200));
			Breaches breaches = context.getBean(Breaches.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> !breaches.events.isEmpty());
			lock.unlock();
			assertThat(lock.isHeldByCurrentThread()).as("the outer entry, unbounded").isTrue();
			assertThat(otherInstance.obtain("batch").tryLock()).isFalse();
			lock.unlock();
			assertThat(breaches.events).singleElement()
				.satisfies((breach) -> assertThat(breach.bound()).isEqualTo(Duration.ofMillis(200)));
		});
	}

	@Test
	void shouldRefuseATtlThatBoundsNothing() {
		this.contextRunner.run((context) -> {
			FencedDistributedLock lock = (FencedDistributedLock) context.getBean(ZkLockRegistry.class).obtain("orders");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.lock(Duration.ZERO))
				.withMessage("ttl PT0S for lock 'orders' (lock path 'spring-integration/orders') is invalid: it bounds "
						+ "the hold, so use a positive duration such as Duration.ofMinutes(5), or lock() / "
						+ "tryLock(time, unit) for no bound");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(Duration.ZERO, Duration.ofSeconds(-1)))
				.withMessageStartingWith("ttl PT-1S for lock 'orders'");
			assertThatIllegalArgumentException().isThrownBy(() -> lock.tryLock(null, Duration.ofSeconds(1)))
				.withMessageStartingWith("Wait time null for lock 'orders'");
			assertThat(lock.isHeldByCurrentThread()).as("nothing half-acquired").isFalse();
			assertThat(otherInstance.obtain("orders").tryLock()).isTrue();
			otherInstance.obtain("orders").unlock();
		});
	}

	record Breach(LockTarget lock, long fencingToken, Duration heldFor, Duration bound, boolean released) {
	}

	static class Breaches implements LockListener {

		final List<Breach> events = new CopyOnWriteArrayList<>();

		@Override
		public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
				boolean released) {
			this.events.add(new Breach(lock, fencingToken, heldFor, bound, released));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Listening {

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

}
