package io.zklock.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.interceptor.AnnotationSettings;
import io.zklock.interceptor.DistributedLockAdvisor;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.SharedLockByCurator;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ZkLockAutoConfiguration}.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
@Tag("slow")
class ZkLockAutoConfigurationTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@Test
	void shouldCreateStartedNamespacedClientAndLockBeansByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(CuratorFramework.class)
				.hasSingleBean(LockEngine.class)
				.hasSingleBean(ExclusiveLockByCurator.class)
				.hasSingleBean(SharedLockByCurator.class)
				.hasSingleBean(DistributedLockAdvisor.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
			assertThat(client.getNamespace()).isEqualTo("zklock");
			assertThat(context.getBean(ILockByCurator.class)).isSameAs(context.getBean(ExclusiveLockByCurator.class));
			assertThat(context.getBean(LockEngine.class).getRootPath()).isEqualTo("/locks");
			assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
				.isEqualTo(Ordered.LOWEST_PRECEDENCE - 1);
			ZkLockProperties properties = context.getBean(ZkLockProperties.class);
			assertThat(properties.getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(30));
			assertThat(properties.getZookeeper().getSessionTimeout()).isEqualTo(Duration.ofSeconds(60));
			assertThat(properties.getZookeeper().getEmbedded().isEnabled()).isFalse();
		});
	}

	@Test
	void shouldLockThroughBothBeansWithOneSharedEngine() {
		this.contextRunner.run((context) -> {
			ExclusiveLockByCurator exclusive = context.getBean(ExclusiveLockByCurator.class);
			SharedLockByCurator shared = context.getBean(SharedLockByCurator.class);
			try (LockHandle write = shared.acquire(LockRequest.of("beans/a", LockMode.WRITE).ownedBy(HoldOwner.THREAD))) {
				// the same thread re-enters through the other bean: one engine, one thread-owned hold
				try (LockHandle again = exclusive
					.acquire(LockRequest.of("beans/a", LockMode.READ).ownedBy(HoldOwner.THREAD))) {
					assertThat(again.fencingToken()).isEqualTo(write.fencingToken());
				}
			}
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getChildren().forPath("/locks/beans/a")).isEmpty();
		});
	}

	@Test
	void shouldBindEveryProperty() {
		this.contextRunner
			.withPropertyValues("zklock.root-path=/app/locks", "zklock.default-wait-time=7s", "zklock.aspect-order=42",
					"zklock.zookeeper.namespace=orders-service", "zklock.zookeeper.session-timeout=20s",
					"zklock.zookeeper.connection-timeout=3s", "zklock.zookeeper.block-until-connected=9s",
					"zklock.zookeeper.retry.base-sleep=50ms", "zklock.zookeeper.retry.max-retries=7",
					"zklock.zookeeper.retry.max-sleep=2s", "zklock.zookeeper.embedded.port=0")
			.run((context) -> {
				ZkLockProperties properties = context.getBean(ZkLockProperties.class);
				assertThat(properties.getRootPath()).isEqualTo("/app/locks");
				assertThat(properties.getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(7));
				assertThat(properties.getAspectOrder()).isEqualTo(42);
				ZkLockProperties.ZooKeeper zookeeper = properties.getZookeeper();
				assertThat(zookeeper.getConnectString()).isEqualTo(server.getConnectString());
				assertThat(zookeeper.getNamespace()).isEqualTo("orders-service");
				assertThat(zookeeper.getSessionTimeout()).isEqualTo(Duration.ofSeconds(20));
				assertThat(zookeeper.getConnectionTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(zookeeper.getBlockUntilConnected()).isEqualTo(Duration.ofSeconds(9));
				assertThat(zookeeper.getRetry().getBaseSleep()).isEqualTo(Duration.ofMillis(50));
				assertThat(zookeeper.getRetry().getMaxRetries()).isEqualTo(7);
				assertThat(zookeeper.getRetry().getMaxSleep()).isEqualTo(Duration.ofSeconds(2));

				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getNamespace()).isEqualTo("orders-service");
				assertThat(client.getZookeeperClient().getConnectionTimeoutMs()).isEqualTo(3000);
				assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(20_000);
				BoundedExponentialBackoffRetry retry = (BoundedExponentialBackoffRetry) client.getZookeeperClient()
					.getRetryPolicy();
				assertThat(retry.getBaseSleepTimeMs()).isEqualTo(50);
				assertThat(retry.getMaxSleepTimeMs()).isEqualTo(2000);
				assertThat(retry.getN()).isEqualTo(7);
				assertThat(context.getBean(LockEngine.class).getRootPath()).isEqualTo("/app/locks");
				assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42);
				try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("x", LockMode.EXCLUSIVE)) {
					assertThat(lock.nodePath()).startsWith("/app/locks/x/");
					assertThat(client.usingNamespace(null).checkExists().forPath("/orders-service" + lock.nodePath()))
						.isNotNull();
				}
			});
	}

	@Test
	void shouldUseTheConfiguredConnectionStateErrorPolicy() {
		this.contextRunner.run((context) -> assertThat(
				context.getBean(CuratorFramework.class).getConnectionStateErrorPolicy())
			.isInstanceOf(StandardConnectionStateErrorPolicy.class));
		this.contextRunner.withPropertyValues("zklock.zookeeper.connection-state-error-policy=session")
			.run((context) -> assertThat(context.getBean(CuratorFramework.class).getConnectionStateErrorPolicy())
				.isInstanceOf(SessionConnectionStateErrorPolicy.class));
	}

	@Test
	void shouldWriteHostProcessApplicationAndInstanceIdAsLockNodeData() {
		String process = " pid=" + ProcessHandle.current().pid();
		this.contextRunner.run((context) -> assertThat(lockNodeData(context)).startsWith("zklock host=")
			.endsWith(process)
			.doesNotContain(" app=", " instance="));
		this.contextRunner.withPropertyValues("spring.application.name=orders", "zklock.instance-id=orders-7f9c:8080")
			.run((context) -> assertThat(lockNodeData(context)).startsWith("zklock host=")
				.endsWith(process + " app=orders instance=orders-7f9c:8080"));
	}

	/** The data of the lock node of a lock taken through the context's lock API. */
	private static String lockNodeData(ApplicationContext context) throws Exception {
		try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("data", LockMode.EXCLUSIVE)) {
			return new String(context.getBean(CuratorFramework.class).getData().forPath(lock.nodePath()),
					StandardCharsets.UTF_8);
		}
	}

	@Test
	void shouldApplyCustomizersToTheBuilder() {
		this.contextRunner.withUserConfiguration(CustomizerConfiguration.class).run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getZookeeperClient().getRetryPolicy()).isInstanceOf(RetryOneTime.class);
		});
	}

	@Test
	void shouldBackOffWhenUserDefinesClient() {
		this.contextRunner.withUserConfiguration(UserClientConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(CuratorFramework.class).doesNotHaveBean(CuratorSafeNotifyExecutor.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getNamespace()).isEqualTo("user");
			assertThat(context.getBean(LockEngine.class).getClient()).isSameAs(client);
		});
	}

	@Test
	void shouldConnectWhereAConnectionDetailsBeanSays() {
		this.contextRunner.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:1")
			.withBean(ZkLockConnectionDetails.class, () -> server::getConnectString)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ZkLockConnectionDetails.class)).isInstanceOf(ConnectionDetails.class);
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(server.getConnectString());
			});
	}

	@Test
	void shouldLockThroughThePrimaryClientWhenThereAreTwo() {
		this.contextRunner.withUserConfiguration(TwoClientsConfiguration.class, PrimaryClientConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("zkLockCuratorFramework");
				assertThat(context.getBean(LockEngine.class).getClient())
					.isSameAs(context.getBean("primaryClient"));
			});
	}

	@Test
	void shouldFailNamingTheClientsWhenTwoAreDefinedAndNoneIsPrimary() {
		this.contextRunner.withUserConfiguration(TwoClientsConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("zklock needs one CuratorFramework to lock through, but "
					+ "the application context has 2 and none of them is @Primary: 'firstClient', 'secondClient'.");
			assertThat(analysis.getAction()).isEqualTo(
					"Mark the client zklock should use @Primary (or the others @Fallback), or define only one.");
		});
	}

	@Test
	void shouldPreferTheApplicationsClientOverSpringCloudZookeeperConfigDataClient() throws Exception {
		try (CuratorFramework configDataClient = startedClient("config")) {
			this.contextRunner.withUserConfiguration(UserClientConfiguration.class)
				.withInitializer((context) -> context.getBeanFactory()
					.registerSingleton("configDataCuratorFramework", configDataClient))
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBeansOfType(CuratorFramework.class)).hasSize(2);
					assertThat(context.getBean(LockEngine.class).getClient().getNamespace()).isEqualTo("user");
				});
		}
	}

	@Test
	void shouldReuseSpringCloudZookeeperConfigDataClientWhenItIsTheOnlyOne() throws Exception {
		try (CuratorFramework configDataClient = startedClient("config")) {
			this.contextRunner
				.withInitializer((context) -> context.getBeanFactory()
					.registerSingleton("configDataCuratorFramework", configDataClient))
				.run((context) -> {
					assertThat(context).hasNotFailed().doesNotHaveBean("zkLockCuratorFramework");
					assertThat(context.getBean(LockEngine.class).getClient()).isSameAs(configDataClient);
				});
		}
	}

	@Test
	void shouldBackOffWhenUserDefinesExclusiveLock() {
		this.contextRunner.withUserConfiguration(UserExclusiveLockConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(ExclusiveLockByCurator.class).hasSingleBean(SharedLockByCurator.class);
			assertThat(context.getBean(ILockByCurator.class))
				.isSameAs(context.getBean(UserExclusiveLockConfiguration.class).lock);
		});
	}

	@Test
	void shouldBackOffWhenUserDefinesSharedLock() {
		this.contextRunner.withUserConfiguration(UserSharedLockConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(SharedLockByCurator.class).hasSingleBean(ExclusiveLockByCurator.class);
			assertThat(context.getBean(SharedLockByCurator.class))
				.isSameAs(context.getBean(UserSharedLockConfiguration.class).lock);
			assertThat(context.getBean(ILockByCurator.class)).isInstanceOf(ExclusiveLockByCurator.class);
		});
	}

	@Test
	void shouldBackOffUnqualifiedLockWhenUserDefinesOwnLockApi() {
		this.contextRunner.withUserConfiguration(UserLockApiConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean(ExclusiveLockByCurator.class).hasSingleBean(SharedLockByCurator.class);
			assertThat(context.getBean(ILockByCurator.class))
				.isSameAs(context.getBean(UserLockApiConfiguration.class).lock);
		});
	}

	@Test
	void shouldBackOffWhenUserDefinesEngineAndAdvisor() {
		this.contextRunner.withUserConfiguration(UserEngineAndAdvisorConfiguration.class).run((context) -> {
			assertThat(context.getBean(LockEngine.class).getRootPath()).isEqualTo("/user-root");
			assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(5);
		});
	}

	@Test
	void shouldNotCreateAnyBeanWhenDisabled() {
		this.contextRunner.withPropertyValues("zklock.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(ILockByCurator.class)
				.doesNotHaveBean(DistributedLockAdvisor.class)
				.doesNotHaveBean(ZkLockProperties.class);
		});
	}

	@Test
	void shouldNotSupplyBeansIfCuratorIsMissing() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.apache.curator")).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ILockByCurator.class);
		});
	}

	@Test
	void shouldFailStartUpWithClearMessageWhenEnsembleIsUnreachable() {
		this.contextRunner
			.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:1",
					"zklock.zookeeper.block-until-connected=1s", "zklock.zookeeper.connection-timeout=500ms")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(ZooKeeperConnectionException.class)
					.hasMessageContaining("'127.0.0.1:1'")
					.hasMessageContaining("within 1000 ms (127.0.0.1:1: connection refused)")
					.hasMessageContaining("zklock.zookeeper.connect-string")
					.hasMessageContaining("zklock.zookeeper.block-until-connected");
			});
	}

	@Test
	void shouldWarnNamingThePropertyWhenConnectingToTheDefaultConnectString(CapturedOutput output) {
		String warning = "zklock.zookeeper.connect-string is not set, so zklock connects to its default, "
				+ "localhost:2181: locks then exclude only the clients of a ZooKeeper on this host, not the other "
				+ "instances of the application. Set zklock.zookeeper.connect-string to the ensemble's host:port pairs "
				+ "(zklock.zookeeper.embedded.enabled=true starts an in-process server for development instead).";
		// whether a ZooKeeper answers on localhost:2181 or not, the warning comes first
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.block-until-connected=1s", "zklock.zookeeper.connection-timeout=500ms")
			.run((context) -> assertThat(output).containsOnlyOnce(warning));
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed());
		this.contextRunner.withPropertyValues("zklock.zookeeper.connect-string=localhost:2181",
				"zklock.zookeeper.block-until-connected=1s", "zklock.zookeeper.connection-timeout=500ms")
			.run((context) -> assertThat(output).as("not when the property is set, even to the default")
				.containsOnlyOnce(warning));
	}

	@Test
	void shouldFailStartUpWhenRootPathIsInvalid() {
		this.contextRunner.withPropertyValues("zklock.root-path=locks").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new ZkLockPropertyFailureAnalyzer(null)
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).startsWith(
					"Invalid value 'locks' for configuration property 'zklock.root-path'")
				.endsWith(": it must start with '/', for example '/locks'.");
		});
	}

	@Test
	void shouldLeaveNoThreadBehindWhenContextCloses() {
		this.contextRunner.run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			client.runSafe(() -> {
			}).get();
			assertThat(threadsNamed("zklock-curator-safe-notify")).isPositive();
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> threadsNamed("zklock-curator-safe-notify") == 0);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> threadsNamed("-EventThread") == 0 && threadsNamed("-SendThread") == 0);
	}

	private static CuratorFramework startedClient(String namespace) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace(namespace)
			.retryPolicy(new RetryOneTime(100))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private static long threadsNamed(String part) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().contains(part))
			.count();
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizerConfiguration {

		@Bean
		CuratorFrameworkCustomizer retryOnceCustomizer() {
			return (builder) -> builder.retryPolicy(new RetryOneTime(10));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework userCuratorFramework() throws InterruptedException {
			return startedClient("user");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoClientsConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework firstClient() throws InterruptedException {
			return startedClient("first");
		}

		@Bean(destroyMethod = "close")
		CuratorFramework secondClient() throws InterruptedException {
			return startedClient("second");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryClientConfiguration {

		@Bean(destroyMethod = "close")
		@Primary
		CuratorFramework primaryClient() throws InterruptedException {
			return startedClient("primary");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserExclusiveLockConfiguration {

		ExclusiveLockByCurator lock;

		@Bean
		ExclusiveLockByCurator userExclusiveLock(CuratorFramework client) {
			this.lock = new ExclusiveLockByCurator(client, "/user");
			return this.lock;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserSharedLockConfiguration {

		SharedLockByCurator lock;

		@Bean
		SharedLockByCurator userSharedLock(CuratorFramework client) {
			this.lock = new SharedLockByCurator(client, "/user");
			return this.lock;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserLockApiConfiguration {

		ILockByCurator lock;

		@Bean
		ILockByCurator userLockApi(CuratorFramework client) {
			ILockByCurator zklock = new ExclusiveLockByCurator(new LockEngine(client, "/custom"));
			this.lock = new ILockByCurator() {

				@Override
				public Optional<LockHandle> tryAcquire(LockRequest request) {
					return zklock.tryAcquire(request);
				}

				@Override
				public LockMode defaultMode() {
					return LockMode.WRITE;
				}

			};
			return this.lock;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserEngineAndAdvisorConfiguration {

		@Bean
		LockEngine userEngine(CuratorFramework client) {
			return new LockEngine(client, "/user-root");
		}

		@Bean
		static DistributedLockAdvisor userAdvisor() {
			DistributedLockAdvisor advisor = new DistributedLockAdvisor(() -> null, () -> null, (call) -> {
			}, "/user-root",
					new AnnotationSettings(Duration.ZERO, null, true), null, null);
			advisor.setOrder(5);
			return advisor;
		}

	}


}
