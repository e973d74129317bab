package io.zklock.autoconfigure.health;

import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.health.ZkLockHealthIndicator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ZkLockHealthContributorAutoConfiguration} and
 * {@link ZkLockHealthIndicator}, against a real ZooKeeper server, on Boot 4; the Boot 3.5
 * counterpart is tested in {@code tests/boot35-tests}.
 */
@Timeout(60)
class ZkLockHealthContributorAutoConfigurationTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class,
				ZkLockHealthContributorAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldReportUpWithConnectionDetailsAndHeldLocks() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZkLockHealthIndicator.class).hasBean("zklockHealthIndicator");
			HealthIndicator indicator = context.getBean("zklockHealthIndicator", HealthIndicator.class);
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("health/a", LockMode.EXCLUSIVE)) {
				Health health = indicator.health();
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("clientState", "STARTED")
					.containsEntry("connectString", server.getConnectString())
					.containsEntry("namespace", "zklock")
					.containsEntry("heldLocks", 1);
				assertThat(health.getDetails().get("connectionState")).isIn("CONNECTED", "RECONNECTED");
				long sessionId = context.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper()
					.getSessionId();
				assertThat(health.getDetails()).containsEntry("sessionId", "0x" + Long.toHexString(sessionId));
			}
			assertThat(indicator.health().getDetails()).containsEntry("heldLocks", 0);
		});
	}

	@Test
	void shouldReportDownWhileServerIsStoppedAndUpAfterRestart() throws Exception {
		try (TestingServer ownServer = new TestingServer(true)) {
			this.contextRunner
				.withPropertyValues("zklock.zookeeper.connect-string=" + ownServer.getConnectString(),
						"zklock.zookeeper.session-timeout=30s", "zklock.zookeeper.connection-timeout=2s")
				.run((context) -> {
					HealthIndicator indicator = context.getBean("zklockHealthIndicator", HealthIndicator.class);
					assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
					ownServer.stop();
					await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
						Health health = indicator.health();
						assertThat(health.getStatus()).isEqualTo(Status.DOWN);
						assertThat(health.getDetails().get("connectionState")).isIn("SUSPENDED", "LOST");
						assertThat(health.getDetails()).doesNotContainKey("sessionId");
					});
					ownServer.restart();
					await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
						Health health = indicator.health();
						assertThat(health.getStatus()).isEqualTo(Status.UP);
						assertThat(health.getDetails().get("connectionState")).isIn("CONNECTED", "RECONNECTED");
					});
				});
		}
	}

	@Test
	void shouldReportDownWhenClientIsNotStarted() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockHealthContributorAutoConfiguration.class))
			.withUserConfiguration(UnstartedClientConfiguration.class)
			.run((context) -> {
				Health health = context.getBean("zklockHealthIndicator", HealthIndicator.class).health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails()).containsEntry("clientState", "LATENT")
					.containsEntry("connectionState", "DISCONNECTED")
					.containsEntry("connectString", "127.0.0.1:1")
					.doesNotContainKeys("sessionId", "heldLocks", "namespace");
			});
	}

	@Test
	void shouldLeaveTheBoot35CounterpartOutOnBoot4() {
		// both are listed for auto-configuration; only the one of the running Boot line applies
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
			.contains(ZkLockHealthContributorAutoConfiguration.class.getName(),
					ZkLockBoot3HealthContributorAutoConfiguration.class.getName());
		this.contextRunner.withConfiguration(AutoConfigurations.of(ZkLockBoot3HealthContributorAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(ZkLockHealthIndicator.class);
				assertThat(context.getBean("zklockHealthIndicator")).isInstanceOf(ZkLockHealthIndicator.class);
			});
	}

	@Test
	void shouldCarryTheBoot35CounterpartInItsOwnClasses() throws Exception {
		// compiled in lock-autoconfigure/boot3 and copied into this module's classes, so the
		// jar users get has both; a build that missed the copy fails here
		Path classes = Path.of(ZkLockHealthContributorAutoConfiguration.class.getProtectionDomain()
			.getCodeSource()
			.getLocation()
			.toURI());
		assertThat(classes.resolve("io/zklock/autoconfigure/health/ZkLockBoot3HealthContributorAutoConfiguration.class"))
			.isRegularFile();
		assertThat(classes.resolve("io/zklock/health/ZkLockBoot3HealthIndicator.class")).isRegularFile();
		assertThat(classes.resolve("io/zklock/health/internal/ZkLockConnectionCheck.class")).isRegularFile();
	}

	@Test
	void shouldNotCreateIndicatorWhenDisabled() {
		this.contextRunner.withPropertyValues("management.health.zklock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkLockHealthIndicator.class)
				.doesNotHaveBean("zklockHealthIndicator"));
	}

	@Test
	void shouldNotCreateIndicatorWhenHealthDefaultsAreDisabled() {
		this.contextRunner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkLockHealthIndicator.class));
	}

	@Test
	void shouldNotCreateIndicatorWhenZkLockIsDisabled() {
		this.contextRunner.withPropertyValues("zklock.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockHealthIndicator.class));
	}

	@Test
	void shouldNotCreateIndicatorWithoutHealthModule() {
		// only the guarding class: a runner loads auto-configurations directly, without the
		// early filter on spring-autoconfigure-metadata.properties that an application has
		this.contextRunner.withClassLoader(new FilteredClassLoader(ConditionalOnEnabledHealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(CuratorFramework.class)
				.doesNotHaveBean("zklockHealthIndicator"));
	}

	@Test
	void shouldBackOffWhenUserDefinesIndicatorOfThatName() {
		this.contextRunner.withUserConfiguration(CustomIndicatorConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean(ZkLockHealthIndicator.class);
			assertThat(context.getBean("zklockHealthIndicator", HealthIndicator.class).health().getStatus())
				.isEqualTo(Status.OUT_OF_SERVICE);
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
