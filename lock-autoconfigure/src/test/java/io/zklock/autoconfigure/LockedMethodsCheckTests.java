package io.zklock.autoconfigure;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockedMethodsCheck}: zklock fails closed when annotated methods would run
 * without their locks, and says so once when that is asked for.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class LockedMethodsCheckTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
				LockedMethodsAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());

	@Test
	void shouldStartWhenEveryAnnotatedMethodIsIntercepted(CapturedOutput output) {
		this.contextRunner.withBean(Orders.class).withBean(Reports.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(Orders.class).ship("42");
			assertThat(context.getBean(Orders.class).lockedCalls()).hasValue(1);
		});
		assertThat(output).doesNotContain("LockedMethods");
	}

	@Test
	void shouldFailNamingCuratorWhenItIsMissing() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.apache.curator"))
			.withBean(Orders.class)
			.withBean(Reports.class)
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).isEqualTo("zklock found 2 @DistributedLock/@DistributedSemaphore "
						+ "methods (Orders.ship(String), Reports.render(String)), but Curator "
						+ "(org.apache.curator:curator-recipes) is not on the class path, so zklock created no lock "
						+ "beans and these methods would run without locks.");
				assertThat(analysis.getAction()).contains("io.zklock:zklock-spring-boot-starter")
					.contains("org.apache.curator:curator-recipes")
					.contains("zklock.enabled=false");
			});
	}

	@Test
	void shouldFailWhenZkLockAutoConfigurationIsExcluded() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LockedMethodsAutoConfiguration.class))
			.withBean(Orders.class)
			.run((context) -> {
				FailureAnalysis analysis = analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("(Orders.ship(String))")
					.contains("no DistributedLockAdvisor bean to intercept them")
					.contains("io.zklock.autoconfigure.ZkLockAutoConfiguration");
				assertThat(analysis.getAction()).contains("spring.autoconfigure.exclude");
			});
	}

	@Test
	void shouldFailWhenTheLockApiWasReplacedByAmbiguousBeans() {
		this.contextRunner.withUserConfiguration(TwoLockApisConfiguration.class).withBean(Orders.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).startsWith("zklock found 1 @DistributedLock method "
					+ "(Orders.ship(String)), but there are 3 ILockByCurator beans and none is @Primary: ")
				.contains("'firstLocks'", "'secondLocks'", "'sharedLockByCurator'")
				.endsWith(", so they cannot be locked.");
			assertThat(analysis.getAction()).contains("mark one @Primary");
		});
	}

	@Test
	void shouldLogOneInfoLineAndRunUnlockedWhenDisabled(CapturedOutput output) {
		this.contextRunner.withPropertyValues("zklock.enabled=false")
			.withBean(Orders.class)
			.withBean(Reports.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(CuratorFramework.class);
				context.getBean(Orders.class).ship("42");
				assertThat(context.getBean(Orders.class).lockedCalls()).hasValue(0);
			});
		assertThat(output).containsOnlyOnce("zklock.enabled=false: 2 @DistributedLock/@DistributedSemaphore methods "
				+ "run without locks (Orders.ship(String), Reports.render(String)).");
	}

	@Test
	void shouldFailNamingPrivateStaticAndFinalMethods() {
		this.contextRunner.withBean(Unreachable.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.startsWith("zklock cannot intercept these @DistributedLock/@DistributedSemaphore methods, so they "
						+ "would run without locks: ")
				.contains("Unreachable.hidden() is private, and a proxy cannot override it")
				.contains("Unreachable.shared() is static, and a proxy only intercepts calls on the bean")
				.contains("Unreachable.sealed() is final, and a class-based proxy cannot override it")
				.doesNotContain("Unreachable.open()");
			assertThat(analysis.getAction()).contains("public (or protected or package-private)")
				.contains("self-invocation");
		});
	}

	@Test
	void shouldFailWhenTheBeanWasCreatedBeforeProxies() {
		this.contextRunner.withUserConfiguration(EarlyBeanConfiguration.class).run((context) -> {
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("bean 'orders' ("
					+ Orders.class.getName()
					+ ") is not a proxy with zklock's advisor, so none of its calls is intercepted: Orders.ship(String)");
			assertThat(analysis.getAction()).contains("BeanFactoryPostProcessor").contains("ObjectProvider");
		});
	}

	@Test
	void shouldWarnOnceAboutMethodsNoInterfaceOfAJdkProxyDeclares(CapturedOutput output) {
		this.contextRunner.withPropertyValues("spring.aop.proxy-target-class=false")
			.withBean("shipping", ShippingService.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(Shipping.class).ship("42")).isEqualTo("locked");
			});
		assertThat(output).containsOnlyOnce("1 @DistributedLock/@DistributedSemaphore method is declared by no "
				+ "interface of its bean's JDK proxy, so only calls from the bean itself reach it, and they bypass "
				+ "the lock: ShippingService.track(String) (bean 'shipping').");
	}

	private static FailureAnalysis analyze(Throwable failure) {
		assertThat(failure).isNotNull();
		return new ZkLockFailureAnalyzer().analyze(failure);
	}

	static class Orders {

		private final AtomicInteger lockedCalls = new AtomicInteger();

		@DistributedLock(path = "orders", key = "#id")
		public void ship(String id) {
			if (io.zklock.annotation.LockContext.currentLock().isPresent()) {
				this.lockedCalls.incrementAndGet();
			}
		}

		AtomicInteger lockedCalls() {
			return this.lockedCalls;
		}

	}

	static class Reports {

		@DistributedSemaphore(path = "reports", permits = 2, key = "#name")
		public void render(String name) {
		}

	}

	static class Unreachable {

		@DistributedLock(path = "open")
		protected void open() {
		}

		@DistributedLock(path = "hidden")
		private void hidden() {
		}

		@DistributedLock(path = "shared")
		static void shared() {
		}

		@DistributedLock(path = "sealed")
		public final void sealed() {
		}

	}

	interface Shipping {

		String ship(String id);

	}

	static class ShippingService implements Shipping {

		@Override
		@DistributedLock(path = "shipping", key = "#id")
		public String ship(String id) {
			return io.zklock.annotation.LockContext.currentLock().isPresent() ? "locked" : "unlocked";
		}

		@DistributedLock(path = "tracking", key = "#id")
		public void track(String id) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EarlyBeanConfiguration {

		@Bean
		static Orders orders() {
			return new Orders();
		}

		// a post-processor that needs the bean makes it before any proxy can wrap it
		@Bean
		static BeanFactoryPostProcessor ordersAuditor(Orders orders) {
			return (beanFactory) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoLockApisConfiguration {

		@Bean
		ILockByCurator firstLocks(LockEngine engine) {
			return lockApi(engine);
		}

		@Bean
		ILockByCurator secondLocks(LockEngine engine) {
			return lockApi(engine);
		}

		private static ILockByCurator lockApi(LockEngine engine) {
			return new ExclusiveLockByCurator(engine) {

				@Override
				public LockMode defaultMode() {
					return LockMode.EXCLUSIVE;
				}

			};
		}

	}

}
