package io.zklock.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.interceptor.DistributedLockAdvisor;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.aop.framework.autoproxy.InfrastructureAdvisorAutoProxyCreator;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DistributedLock} applied by {@link DistributedLockAdvisor}.
 */
@Timeout(60)
@Tag("slow")
class DistributedLockInterceptorTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(ServiceConfiguration.class);

	@Test
	void shouldLockPathPlusSpelKeyAndExposeLockInsideMethod() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			Observed observed = service.ship(new Order("42"));
			assertThat(observed.lockPath()).isEqualTo("orders/42");
			assertThat(observed.mode()).isEqualTo(LockMode.EXCLUSIVE);
			assertThat(observed.fencingToken()).isPositive();
			assertThat(observed.nodePath()).startsWith("/locks/orders/42/_c_").contains("-lock-");
			assertThat(observed.nodeExisted()).isTrue();
			assertThat(client.getChildren().forPath("/locks/orders/42")).isEmpty();
			assertThat(LockContext.currentLock()).isEmpty();
		});
	}

	@Test
	void shouldResolveKeysByIndexBeanReferenceAndTarget() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			assertThat(service.byIndex("7", 1)).isEqualTo("orders/7");
			assertThat(service.byBean()).isEqualTo("tenants/acme");
			assertThat(service.byTarget()).isEqualTo("targets/order-service");
		});
	}

	@Test
	void shouldRefuseNullOrBlankKeyNamingExpressionMethodAndArguments() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThatIllegalArgumentException().isThrownBy(() -> service.ship(new Order(null)))
				.withMessageContaining("'#order.id'")
				.withMessageContaining("OrderService.ship(Order)")
				.withMessageContaining("evaluated to null")
				.withMessageContaining("Order[id=null]");
			assertThatIllegalArgumentException().isThrownBy(() -> service.ship(new Order("  ")))
				.withMessageContaining("blank");
			assertThat(client.checkExists().forPath("/locks/orders/null")).isNull();
		});
	}

	@Test
	void shouldThrowNamingLockPathAndWaitWhenLockIsBusy() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			LockHandle holder = CompletableFuture.supplyAsync(() -> locks.acquire("orders/9", LockMode.EXCLUSIVE))
				.get(10, TimeUnit.SECONDS);
			try {
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> service.quick("9"))
					.withMessageContaining("'orders/9'")
					.withMessageContaining("within 200 ms")
					.withMessageContaining("OrderService.quick(String)")
					.satisfies((ex) -> assertThat(ex.getLockPath()).isEqualTo("orders/9"));
				assertThat(service.calls()).isZero();
			}
			finally {
				holder.release();
			}
			assertThat(service.quick("9")).isEqualTo("orders/9");
		});
	}

	@Test
	void shouldApplyTheAnnotationWithoutAspectJ() {
		// the starter brings no AspectJ: Boot's AOP auto-configuration then registers only the
		// infrastructure proxy creator, which must still apply zklock's advisor
		lockingContext().withUserConfiguration(PublicServiceConfiguration.class)
			.withClassLoader(new FilteredClassLoader("org.aspectj"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(ClassUtils.isPresent("org.aspectj.weaver.Advice", context.getClassLoader())).isFalse();
				assertThat(context.getBean(AopConfigUtils.AUTO_PROXY_CREATOR_BEAN_NAME))
					.isExactlyInstanceOf(InfrastructureAdvisorAutoProxyCreator.class);
				PublicService service = context.getBean(PublicService.class);
				assertThat(AopUtils.isAopProxy(service)).isTrue();
				ILockByCurator locks = context.getBean(ILockByCurator.class);
				LockHandle holder = CompletableFuture
					.supplyAsync(() -> locks.acquire("without-aspectj", LockMode.EXCLUSIVE))
					.get(10, TimeUnit.SECONDS);
				try {
					assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(service::work)
						.withMessageContaining("'without-aspectj'");
				}
				finally {
					holder.release();
				}
				assertThat(service.work()).isEqualTo("without-aspectj");
			});
	}

	@Test
	void shouldReleaseWhenMethodThrows() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(service::failing).withMessage("boom");
			assertThat(client.getChildren().forPath("/locks/failing")).isEmpty();
			assertThat(context.getBean(ILockByCurator.class).isHeldByCurrentThread("failing")).isFalse();
			assertThat(LockContext.currentLock()).isEmpty();
		});
	}

	@Test
	void shouldShareReadLocksAndExcludeWriters() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			LockHandle reader = CompletableFuture.supplyAsync(() -> locks.acquire("reports", LockMode.READ))
				.get(10, TimeUnit.SECONDS);
			try {
				assertThat(service.read()).isEqualTo(LockMode.READ);
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(service::write)
					.withMessageContaining("WRITE lock on 'reports'");
			}
			finally {
				reader.release();
			}
			assertThat(service.write()).isEqualTo(LockMode.WRITE);
		});
	}

	@Test
	void shouldHonourMetaAnnotation() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			assertThat(service.composed("5")).isEqualTo("composed/5");
		});
	}

	@Test
	void shouldExcludeConcurrentCallersAcrossThreads() throws Exception {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			int threads = 4;
			int rounds = 25;
			CountDownLatch start = new CountDownLatch(1);
			List<CompletableFuture<Void>> workers = java.util.stream.IntStream.range(0, threads)
				.mapToObj((i) -> CompletableFuture.runAsync(() -> {
					await(start);
					for (int r = 0; r < rounds; r++) {
						service.increment();
					}
				}))
				.toList();
			start.countDown();
			CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			assertThat(service.counter()).isEqualTo(threads * rounds);
			assertThat(service.overlaps()).isZero();
		});
	}

	@Test
	void shouldLimitConcurrentCallsToThePermitsOfASemaphore() {
		this.contextRunner.run((context) -> {
			OrderService service = context.getBean(OrderService.class);
			List<CompletableFuture<Void>> workers = java.util.stream.IntStream.range(0, 6)
				.mapToObj((i) -> CompletableFuture.runAsync(() -> {
					for (int r = 0; r < 3; r++) {
						try {
							service.render();
						}
						catch (InterruptedException ex) {
							throw new IllegalStateException(ex);
						}
					}
				}))
				.toList();
			CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
			assertThat(service.maxRendering()).isBetween(1, 2);
			assertThat(context.getBean(CuratorFramework.class).getChildren().forPath("/locks/render/leases")).isEmpty();
		});
	}

	@Test
	void shouldFailStartUpForZeroPermits() {
		lockingContext()
			.withUserConfiguration(ZeroPermitsConfiguration.class)
			.run((context) -> assertThat(context.getStartupFailure())
				.hasMessageContaining("@DistributedSemaphore on ZeroPermitsService.work()")
				.hasMessageContaining("permits = 0"));
	}

	@Test
	void shouldFailStartUpForInvalidWaitTime() {
		lockingContext()
			.withUserConfiguration(InvalidConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("InvalidService.work()")
					.hasMessageContaining("invalid waitTime 'soon'")
					.hasMessageContaining("'5s'");
			});
	}

	@Test
	void shouldFailStartUpForInvalidPath() {
		lockingContext()
			.withUserConfiguration(InvalidPathConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("InvalidPathService.work()")
					.hasMessageContaining("Lock path 'orders//x' is invalid: empty segment");
			});
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	record Order(String id) {
	}

	record Observed(String lockPath, LockMode mode, long fencingToken, String nodePath, boolean nodeExisted) {
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(path = "composed", key = "#id")
	@interface ComposedLock {

	}

	static class Tenant {

		public String getName() {
			return "acme";
		}

	}

	static class OrderService {

		private final CuratorFramework client;

		private int calls;

		private int counter;

		private volatile boolean inside;

		private int overlaps;

		OrderService(CuratorFramework client) {
			this.client = client;
		}

		@DistributedLock(path = "orders", key = "#order.id")
		public Observed ship(Order order) throws Exception {
			LockHandle lock = LockContext.currentLock().orElseThrow();
			return new Observed(lock.lockPath(), lock.mode(), LockContext.currentToken(), lock.nodePath(),
					this.client.checkExists().forPath(lock.nodePath()) != null);
		}

		@DistributedLock(path = "orders", key = "#p0")
		public String byIndex(String id, int ignored) {
			return LockContext.currentLock().orElseThrow().lockPath();
		}

		@DistributedLock(path = "tenants", key = "@tenant.name")
		public String byBean() {
			return LockContext.currentLock().orElseThrow().lockPath();
		}

		@DistributedLock(path = "targets", key = "#root.target.name")
		public String byTarget() {
			return LockContext.currentLock().orElseThrow().lockPath();
		}

		public String getName() {
			return "order-service";
		}

		@DistributedLock(path = "orders", key = "#id", waitTime = "200ms")
		public String quick(String id) {
			this.calls++;
			return LockContext.currentLock().orElseThrow().lockPath();
		}

		int calls() {
			return this.calls;
		}

		@DistributedLock(path = "failing")
		public void failing() {
			throw new IllegalStateException("boom");
		}

		@DistributedLock(path = "reports", mode = LockMode.READ, waitTime = "0")
		public LockMode read() {
			return LockContext.currentLock().orElseThrow().mode();
		}

		@DistributedLock(path = "reports", mode = LockMode.WRITE, waitTime = "300ms")
		public LockMode write() {
			return LockContext.currentLock().orElseThrow().mode();
		}

		@ComposedLock
		public String composed(String id) {
			return LockContext.currentLock().orElseThrow().lockPath();
		}

		private final java.util.concurrent.atomic.AtomicInteger rendering = new java.util.concurrent.atomic.AtomicInteger();

		private final java.util.concurrent.atomic.AtomicInteger maxRendering = new java.util.concurrent.atomic.AtomicInteger();

		@DistributedSemaphore(path = "render", permits = 2, waitTime = "30s")
		public void render() throws InterruptedException {
			this.maxRendering.accumulateAndGet(this.rendering.incrementAndGet(), Math::max);
			Thread.sleep(20); // simulated work while holding a permit
			this.rendering.decrementAndGet();
		}

		int maxRendering() {
			return this.maxRendering.get();
		}

		@DistributedLock(path = "counter")
		public void increment() {
			if (this.inside) {
				this.overlaps++;
			}
			this.inside = true;
			int value = this.counter;
			Thread.yield();
			this.counter = value + 1;
			this.inside = false;
		}

		int counter() {
			return this.counter;
		}

		int overlaps() {
			return this.overlaps;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ServiceConfiguration {

		@Bean
		OrderService orderService(CuratorFramework client) {
			return new OrderService(client);
		}

		@Bean
		Tenant tenant() {
			return new Tenant();
		}

	}

	/** Public, so a class proxy defined by another class loader may extend it. */
	public static class PublicService {

		@DistributedLock(path = "without-aspectj", waitTime = "0")
		public String work() {
			return LockContext.currentLock().orElseThrow().lockPath();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PublicServiceConfiguration {

		@Bean
		PublicService publicService() {
			return new PublicService();
		}

	}

	static class InvalidService {

		@DistributedLock(path = "x", waitTime = "soon")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InvalidConfiguration {

		@Bean
		InvalidService invalidService() {
			return new InvalidService();
		}

	}

	static class ZeroPermitsService {

		@DistributedSemaphore(path = "x", permits = 0)
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ZeroPermitsConfiguration {

		@Bean
		ZeroPermitsService zeroPermitsService() {
			return new ZeroPermitsService();
		}

	}

	static class InvalidPathService {

		@DistributedLock(path = "orders//x")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InvalidPathConfiguration {

		@Bean
		InvalidPathService invalidPathService() {
			return new InvalidPathService();
		}

	}

}
