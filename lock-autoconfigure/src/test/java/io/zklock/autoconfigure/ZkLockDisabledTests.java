package io.zklock.autoconfigure;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.annotation.ReactiveLockContext;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * An application written for zklock, run with {@code zklock.enabled=false}, with every
 * auto-configuration zklock lists: it starts and runs, its annotated methods run without
 * locks, and every value zklock cannot give without locks (a lock from
 * {@link ILockByCurator}, a fencing token from {@link LockContext} or
 * {@link ReactiveLockContext}, an engine bean) says that zklock is disabled.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class ZkLockDisabledTests {

	private static final Duration VERIFY = Duration.ofSeconds(15);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(ZkLockApplication.class)
		.withPropertyValues("zklock.enabled=false");

	@Test
	void shouldStartAnApplicationThatInjectsTheLockApiAndRefuseEveryAcquireSayingWhy() {
		this.contextRunner.withBean(OrderService.class).run((context) -> {
			assertThat(context).hasNotFailed();
			ILockByCurator locks = context.getBean(OrderService.class).locks;
			String refused = "zklock is disabled (zklock.enabled=false), so the EXCLUSIVE lock on 'orders/42' cannot "
					+ "be acquired: with zklock off, ILockByCurator takes no locks and annotated methods run without "
					+ "them. Remove zklock.enabled=false to lock.";
			assertThatIllegalStateException().isThrownBy(() -> locks.tryAcquire("orders/42", Duration.ofSeconds(1)))
				.withMessage(refused);
			assertThatIllegalStateException().isThrownBy(() -> locks.acquireDistributedLock("orders/42"))
				.withMessage(refused);
			assertThatIllegalStateException().isThrownBy(() -> locks.asLock("orders/42").lock()).withMessage(refused);
			assertThatIllegalStateException()
				.isThrownBy(() -> locks.executeLocked("orders/42", LockMode.EXCLUSIVE, Duration.ZERO, () -> {
				}))
				.withMessage(refused);
			assertThatIllegalStateException().isThrownBy(() -> locks.releaseDistributedLock("orders/42"))
				.withMessage("zklock is disabled (zklock.enabled=false), so no lock on 'orders/42' is held to "
						+ "release: with zklock off, ILockByCurator takes no locks. Remove zklock.enabled=false to "
						+ "lock.");
			assertThat(locks.heldLocks()).isEmpty();
			assertThat(locks.isHeldByCurrentThread("orders/42")).isFalse();
		});
	}

	@Test
	void shouldRunALockedMethodWithoutALockAndSayWhyItHasNoToken() {
		this.contextRunner.withBean(Orders.class).run((context) -> {
			assertThat(context).hasNotFailed();
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.currentLock("42")).isEmpty();
			assertThatIllegalStateException().isThrownBy(() -> orders.ship("42"))
				.withMessage("zklock is disabled (zklock.enabled=false), so Orders.ship(String) "
						+ "runs without a lock and has no fencing token. In code that must run both ways, use "
						+ "LockContext.currentLock(), empty while zklock is disabled; or remove "
						+ "zklock.enabled=false.");
		});
	}

	@Test
	void shouldSayWhyAReactiveMethodHasNoToken() {
		this.contextRunner.withBean(Orders.class).run((context) -> {
			Orders orders = context.getBean(Orders.class);
			StepVerifier.create(orders.currentLockReactively("42"))
				.assertNext((lock) -> assertThat(lock).isEmpty())
				.expectComplete()
				.verify(VERIFY);
			StepVerifier.create(orders.reserve("42"))
				.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(IllegalStateException.class)
					.hasMessage("zklock is disabled (zklock.enabled=false), so "
							+ "Orders.reserve(String) runs without a lock and has no fencing "
							+ "token. In code that must run both ways, use ReactiveLockContext.currentLock(), empty "
							+ "while zklock is disabled; or remove zklock.enabled=false."))
				.verify(VERIFY);
		});
	}

	@Test
	void shouldExplainAMissingEngineBeanByTheSwitch(CapturedOutput output) {
		SpringApplication application = new SpringApplication(ZkLockApplication.class, Shipping.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		assertThatExceptionOfType(Exception.class)
			.isThrownBy(() -> application.run("--zklock.enabled=false", "--logging.level.root=INFO"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Parameter 0 of constructor in " + Shipping.class.getName() + " requires a bean of type "
					+ "io.zklock.lock.ExclusiveLockByCurator, but zklock is disabled (zklock.enabled=false from "
					+ "\"zklock.enabled\" from property source \"commandLineArgs\"), and then defines no lock engine "
					+ "beans: no CuratorFramework, LockEngine, ExclusiveLockByCurator, SharedLockByCurator or "
					+ "SemaphoreByCurator, only an ILockByCurator that refuses every acquire, saying that zklock is "
					+ "disabled.")
			.contains("Inject ILockByCurator instead of ExclusiveLockByCurator, or remove zklock.enabled=false.");
	}

	/** AOP and every auto-configuration zklock lists, as in an application. */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(AopAutoConfiguration.class)
	@Import(LockedMethodsWithoutCuratorTests.ZkLockAutoConfigurations.class)
	static class ZkLockApplication {

	}

	static class OrderService {

		final ILockByCurator locks;

		OrderService(ILockByCurator locks) {
			this.locks = locks;
		}

	}

	static class Shipping {

		Shipping(ExclusiveLockByCurator locks) {
		}

	}

	static class Orders {

		@DistributedLock(path = "orders", key = "#id")
		public long ship(String id) {
			return LockContext.currentToken();
		}

		@DistributedLock(path = "orders", key = "#id")
		public Optional<LockHandle> currentLock(String id) {
			return LockContext.currentLock();
		}

		@DistributedLock(path = "orders", key = "#id")
		public Mono<Long> reserve(String id) {
			return Mono.just(id).flatMap((ignored) -> ReactiveLockContext.currentToken());
		}

		@DistributedLock(path = "orders", key = "#id")
		public Mono<Optional<LockHandle>> currentLockReactively(String id) {
			return ReactiveLockContext.currentLock().map(Optional::of).defaultIfEmpty(Optional.empty());
		}

	}

}
