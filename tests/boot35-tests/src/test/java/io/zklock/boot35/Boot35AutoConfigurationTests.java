package io.zklock.boot35;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.health.ZkLockBoot3HealthContributorAutoConfiguration;
import io.zklock.autoconfigure.metrics.ZkLockMetricsAutoConfiguration;
import io.zklock.autoconfigure.observation.ZkLockObservationAutoConfiguration;
import io.zklock.health.ZkLockBoot3HealthIndicator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.metrics.HeldLocksMeterBinder;
import io.zklock.metrics.LockMetricsListener;
import io.zklock.observation.LockObservationListener;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.SpringVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What zklock has for Spring Boot 3.5 only, on Spring Boot 3.5 (Spring Framework 6.2): the Boot
 * 3.5 health contributor (from lock-autoconfigure/boot3), and the metrics and observation
 * auto-configurations ordered after Boot 3.5's own registry auto-configurations (Boot 4 moved
 * them). The rest of zklock-spring-boot's tests run here from its test jar.
 */
@EmbeddedZooKeeper
@Timeout(60)
class Boot35AutoConfigurationTests {

	private static ApplicationContextRunner runner(TestZooKeeper zookeeper) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues());
	}

	@Test
	void shouldRunOnTheBoot35Line() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(SpringVersion.getVersion()).startsWith("6.2.");
	}

	@Test
	void shouldReportHealthThroughTheBoot35Indicator(TestZooKeeper zookeeper) {
		// (the Boot 4 auto-configuration stays out: an application reads it with ASM and its
		// condition on Boot 4's health module fails; Boot35ApplicationTests shows that)
		runner(zookeeper)
			.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					ZkLockBoot3HealthContributorAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ZkLockBoot3HealthIndicator.class);
				HealthIndicator indicator = context.getBean("zklockHealthIndicator", HealthIndicator.class);
				try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("health/a", LockMode.EXCLUSIVE)) {
					Health health = indicator.health();
					assertThat(health.getStatus()).isEqualTo(Status.UP);
					assertThat(health.getDetails()).containsEntry("clientState", "STARTED")
						.containsEntry("connectString", zookeeper.connectString())
						.containsEntry("namespace", zookeeper.namespace())
						.containsEntry("heldLocks", 1);
				}
			});
	}

	@Test
	void shouldReportDownWhenClientIsNotStarted() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockBoot3HealthContributorAutoConfiguration.class))
			.withUserConfiguration(UnstartedClientConfiguration.class)
			.run((context) -> {
				Health health = context.getBean("zklockHealthIndicator", HealthIndicator.class).health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails()).containsEntry("clientState", "LATENT")
					.containsEntry("connectionState", "DISCONNECTED");
			});
	}

	@Test
	void shouldNotCreateTheIndicatorWhenTheHealthIndicatorIsDisabled(TestZooKeeper zookeeper) {
		runner(zookeeper).withConfiguration(AutoConfigurations.of(ZkLockBoot3HealthContributorAutoConfiguration.class))
			.withPropertyValues("management.health.zklock.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("zklockHealthIndicator"));
	}

	@Test
	void shouldBackOffWhenUserDefinesIndicatorOfThatName(TestZooKeeper zookeeper) {
		runner(zookeeper).withConfiguration(AutoConfigurations.of(ZkLockBoot3HealthContributorAutoConfiguration.class))
			.withUserConfiguration(CustomIndicatorConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ZkLockBoot3HealthIndicator.class);
				assertThat(context.getBean("zklockHealthIndicator", HealthIndicator.class).health().getStatus())
					.isEqualTo(Status.OUT_OF_SERVICE);
			});
	}

	@Test
	void shouldNotCreateIndicatorWithoutActuator(TestZooKeeper zookeeper) {
		runner(zookeeper).withConfiguration(AutoConfigurations.of(ZkLockBoot3HealthContributorAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.health"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(CuratorFramework.class)
				.doesNotHaveBean("zklockHealthIndicator"));
	}

	@Test
	void shouldRecordMetersInBoot35Registry(TestZooKeeper zookeeper) {
		runner(zookeeper)
			.withConfiguration(AutoConfigurations.of(ZkLockMetricsAutoConfiguration.class,
					MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(LockMetricsListener.class).hasSingleBean(HeldLocksMeterBinder.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				try (LockHandle lock = context.getBean(ILockByCurator.class)
					.tryAcquire("orders/42", LockMode.WRITE, Duration.ofSeconds(5))
					.orElseThrow()) {
					assertThat(registry.get(HeldLocksMeterBinder.HELD_LOCKS).gauge().value()).isEqualTo(1);
				}
				assertThat(registry.get(LockMetricsListener.ACQUIRE)
					.tags("lock", "orders", "mode", "write", "outcome", "acquired")
					.timer()
					.count()).isEqualTo(1);
				assertThat(registry.get(LockMetricsListener.HELD).tags("lock", "orders").timer().count()).isEqualTo(1);
			});
	}

	@Test
	void shouldObserveAcquiresWithBoot35ObservationRegistry(TestZooKeeper zookeeper) {
		runner(zookeeper)
			.withConfiguration(
					AutoConfigurations.of(ZkLockObservationAutoConfiguration.class, ObservationAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(ObservationRegistry.class)
					.hasSingleBean(LockObservationListener.class);
				context.getBean(ILockByCurator.class).acquire("observed", LockMode.EXCLUSIVE).close();
			});
	}

	@Configuration(proxyBeanMethods = false)
	private static final class CustomIndicatorConfiguration {

		@Bean
		HealthIndicator zklockHealthIndicator() {
			return () -> Health.outOfService().build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	private static final class UnstartedClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework curatorFramework() {
			return CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(10));
		}

	}

}
