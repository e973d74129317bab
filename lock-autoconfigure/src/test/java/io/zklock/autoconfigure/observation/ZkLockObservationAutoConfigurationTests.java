package io.zklock.autoconfigure.observation;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.observation.DefaultLockAcquisitionObservationConvention;
import io.zklock.observation.LockAcquisitionContext;
import io.zklock.observation.LockAcquisitionObservationConvention;
import io.zklock.observation.LockObservationListener;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link ZkLockObservationAutoConfiguration}: observations of real acquires on a
 * real ZooKeeper server, in a {@link TestObservationRegistry}.
 */
@Timeout(60)
class ZkLockObservationAutoConfigurationTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockObservationAutoConfiguration.class))
		.withUserConfiguration(TestObservationRegistryConfiguration.class)
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
	void shouldObserveAcquireAsChildOfCurrentObservation() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockObservationListener.class);
			TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
			LockEngine engine = context.getBean(LockEngine.class);
			Observation request = Observation.start("http.server.requests", registry);
			long fencingToken;
			try (Observation.Scope scope = request.openScope();
					LockHandle lock = new ExclusiveLockByCurator(engine)
						.tryAcquire(LockRequest.of("orders/42", LockMode.EXCLUSIVE).waitAtMost(Duration.ofSeconds(5))
							.named("orders"))
						.orElseThrow()) {
				fencingToken = lock.fencingToken();
			}
			request.stop();
			TestObservationRegistryAssert.assertThat(registry)
				.hasNumberOfObservationsWithNameEqualTo("zklock.acquisition", 1)
				.hasObservationWithNameEqualTo("zklock.acquisition")
				.that()
				.hasBeenStarted()
				.hasBeenStopped()
				.hasContextualNameEqualTo("acquire orders")
				.hasLowCardinalityKeyValue("lock", "orders")
				.hasLowCardinalityKeyValue("mode", "exclusive")
				.hasLowCardinalityKeyValue("outcome", "acquired")
				.hasHighCardinalityKeyValue("lock.path", "orders/42")
				.hasHighCardinalityKeyValue("fencing.token", Long.toString(fencingToken))
				.doesNotHaveError()
				.hasParentObservationEqualTo(request);
		});
	}

	@Test
	void shouldObserveTimedOutAndFailedAcquires() {
		this.contextRunner.run((context) -> {
			TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
			LockEngine engine = context.getBean(LockEngine.class);
			try (LockHandle lock = new ExclusiveLockByCurator(engine).tryAcquire("jobs/a", LockMode.WRITE, Duration.ofSeconds(5))
				.orElseThrow()) {
				Optional<LockHandle> timedOut = CompletableFuture
					.supplyAsync(() -> new ExclusiveLockByCurator(engine).tryAcquire("jobs/a", LockMode.READ, Duration.ofMillis(50)),
							this.otherThread)
					.get(20, TimeUnit.SECONDS);
				assertThat(timedOut).isEmpty();
				CompletableFuture<?> interrupted = CompletableFuture.runAsync(() -> {
					Thread.currentThread().interrupt();
					new ExclusiveLockByCurator(engine).tryAcquire("jobs/a", LockMode.READ, Duration.ofSeconds(10));
				}, this.otherThread);
				assertThat(interrupted).failsWithin(Duration.ofSeconds(20));
			}
			TestObservationRegistryAssert.assertThat(registry)
				.hasNumberOfObservationsWithNameEqualTo("zklock.acquisition", 3)
				.hasHandledContextsThatSatisfy((contexts) -> {
					assertThat(contexts).map(LockAcquisitionContext.class::cast)
						.extracting(LockAcquisitionContext::getMode, LockAcquisitionContext::getOutcome)
						.containsExactly(tuple(LockMode.WRITE, "acquired"), tuple(LockMode.READ, "timeout"),
								tuple(LockMode.READ, "error"));
					assertThat(contexts.get(2).getError()).isInstanceOf(LockAcquisitionException.class);
				});
		});
	}

	@Test
	void shouldUseConventionBean() {
		this.contextRunner.withUserConfiguration(CustomConventionConfiguration.class).run((context) -> {
			TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
			new ExclusiveLockByCurator(context.getBean(LockEngine.class))
				.tryAcquire("custom", LockMode.EXCLUSIVE, Duration.ofSeconds(5))
				.orElseThrow()
				.close();
			TestObservationRegistryAssert.assertThat(registry)
				.hasObservationWithNameEqualTo("app.lock.wait")
				.that()
				.hasLowCardinalityKeyValue("team", "payments")
				.hasBeenStopped();
		});
	}

	@Test
	void shouldNotCreateListenerWithoutObservationRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockObservationAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockObservationListener.class));
	}

	@Test
	void shouldBackOffCleanlyWithoutMicrometerObservation() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZkLockAutoConfiguration.class, ZkLockObservationAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
			.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(LockObservationListener.class);
				new ExclusiveLockByCurator(context.getBean(LockEngine.class))
					.tryAcquire("plain", LockMode.EXCLUSIVE, Duration.ofSeconds(5))
					.orElseThrow()
					.close();
			});
	}

	@Configuration(proxyBeanMethods = false)
	private static final class TestObservationRegistryConfiguration {

		@Bean
		TestObservationRegistry observationRegistry() {
			return TestObservationRegistry.create();
		}

	}

	@Configuration(proxyBeanMethods = false)
	private static final class CustomConventionConfiguration {

		@Bean
		LockAcquisitionObservationConvention customConvention() {
			return new DefaultLockAcquisitionObservationConvention() {

				@Override
				public String getName() {
					return "app.lock.wait";
				}

				@Override
				public KeyValues getLowCardinalityKeyValues(LockAcquisitionContext context) {
					return super.getLowCardinalityKeyValues(context).and("team", "payments");
				}

			};
		}

	}

}
