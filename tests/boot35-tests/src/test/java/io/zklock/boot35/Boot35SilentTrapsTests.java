package io.zklock.boot35;

import java.time.Duration;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.InvalidLockAnnotationException;
import io.zklock.annotation.LockContext;
import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockDisabledAutoConfiguration;
import io.zklock.autoconfigure.ZkLockStartupException;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The silent traps of a new user, made loud, on Spring Boot 3.5 (Spring Framework 6.2, whose
 * lifecycle and AOP run them): an application's client that was never started, a key that
 * names no parameter, a mistyped {@code zklock.*} key, {@code zklock.enabled=false}, and the
 * wait for the ensemble at start-up. A class compiled without {@code -parameters} is in
 * {@link Boot35KeyVariablesTests}; a wait that runs out while the client is disconnected, and a
 * held lock in doubt and confirmed, in {@link Boot35ConnectionEventsTests}. The Boot 4 tests ({@code ApplicationClientStateTests},
 * {@code LockKeyVariablesTests}, {@code ZkLockDisabledTests}, {@code ZkLockStartupFailureTests})
 * cover every case.
 */
@EmbeddedZooKeeper
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class Boot35SilentTrapsTests {

	private static ApplicationContextRunner runner(TestZooKeeper zookeeper) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLockDisabledAutoConfiguration.class, LockedMethodsAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues());
	}

	@Test
	void shouldFailNamingAnApplicationClientThatWasNeverStarted(TestZooKeeper zookeeper) {
		runner(zookeeper)
			.withBean("ordersCuratorFramework", CuratorFramework.class,
					() -> CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100)),
					(definition) -> definition.setDestroyMethodName("close"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(ZkLockStartupException.class)
					.hasMessageContaining("bean 'ordersCuratorFramework'")
					.hasMessageContaining("was never started (state LATENT)")
					.hasMessageContaining("@Bean(initMethod = \"start\", destroyMethod = \"close\")");
			});
	}

	@Test
	void shouldFailWhenAKeyNamesNoParameter(TestZooKeeper zookeeper) {
		runner(zookeeper).withBean(Typo.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLockAnnotationException.class)
				.hasMessageContaining("has a key '#orderId' that refers to 'orderId', which is no parameter of the "
						+ "method (its parameters: id)")
				.hasMessageContaining("'#p0' is the first");
		});
	}

	@Test
	void shouldFailNamingAMistypedPropertyAndTheOneMeant(TestZooKeeper zookeeper) {
		runner(zookeeper).withPropertyValues("zklock.zookeper.session-timeout=20s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).as("fails before any bean is created")
				.isInstanceOf(ZkLockStartupException.class)
				.hasMessageStartingWith("zklock has no property 'zklock.zookeper.session-timeout' (originating from '")
				.hasMessageContaining("so its value would be ignored: did you mean zklock.zookeeper.session-timeout?");
		});
	}

	@Test
	void shouldStartAndRunWithZkLockDisabled(TestZooKeeper zookeeper) {
		runner(zookeeper).withPropertyValues("zklock.enabled=false").withBean(Orders.class).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(CuratorFramework.class);
			assertThatIllegalStateException()
				.isThrownBy(() -> context.getBean(ILockByCurator.class).tryAcquire("orders/42", Duration.ZERO))
				.withMessageStartingWith("zklock is disabled (zklock.enabled=false), so the EXCLUSIVE lock on "
						+ "'orders/42' cannot be acquired");
			Orders orders = context.getBean(Orders.class);
			assertThat(orders.currentLock("42")).isEmpty();
			assertThatIllegalStateException().isThrownBy(() -> orders.ship("42"))
				.withMessageStartingWith("zklock is disabled (zklock.enabled=false), so Orders.ship(String) runs "
						+ "without a lock and has no fencing token.");
		});
	}

	@Test
	void shouldLogTheWaitForTheEnsembleAtItsStart(TestZooKeeper zookeeper, CapturedOutput output) {
		runner(zookeeper)
			.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:1",
					"zklock.zookeeper.block-until-connected=1s", "zklock.zookeeper.connection-timeout=500ms")
			.run((context) -> assertThat(context).hasFailed());
		assertThat(output).containsOnlyOnce("Connecting to the ZooKeeper ensemble at '127.0.0.1:1'; start-up waits "
				+ "up to 1000 ms for it (zklock.zookeeper.block-until-connected).");
	}

	static class Typo {

		@DistributedLock(path = "orders", key = "#orderId")
		public void ship(String id) {
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

	}

}
