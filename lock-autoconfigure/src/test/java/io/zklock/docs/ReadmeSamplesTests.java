package io.zklock.docs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.test.StepVerifier;

import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkServerTest;
import io.zklock.docs.ReadmeSamples.Exports;
import io.zklock.docs.ReadmeSamples.Imports;
import io.zklock.docs.ReadmeSamples.Inventory;
import io.zklock.docs.ReadmeSamples.Ledger;
import io.zklock.docs.ReadmeSamples.LockCalls;
import io.zklock.docs.ReadmeSamples.Order;
import io.zklock.docs.ReadmeSamples.PlainCurator;
import io.zklock.docs.ReadmeSamples.Report;
import io.zklock.docs.ReadmeSamples.Reports;
import io.zklock.docs.ReadmeSamples.Settlement;
import io.zklock.docs.ReadmeSamples.Shipping;
import io.zklock.docs.ReadmeSamples.Store;
import io.zklock.lock.ExclusiveLockByCurator;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.PermitLease;
import io.zklock.lock.SemaphoreByCurator;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the Java samples of README.md and docs/usage.md ({@link ReadmeSamples}) in an application with zklock's
 * auto-configuration, against a real ZooKeeper server.
 */
@Timeout(60)
class ReadmeSamplesTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
				LockedMethodsAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString())
		.withUserConfiguration(SampleBeans.class);

	@Test
	void shouldShipUnderTheOrdersLock() {
		this.contextRunner.run((context) -> {
			context.getBean(Shipping.class).ship(new Order("42"));
			assertThat(context.getBean(Store.class).writes).singleElement().asString().startsWith("Order[id=42]@");
		});
	}

	@Test
	void shouldRunEveryCallOfTheInjectedApi() {
		this.contextRunner.run((context) -> {
			Optional<LockHandle> lock = context.getBean(LockCalls.class).all(new Order("42"), new Report("daily"));
			assertThat(lock).hasValueSatisfying((held) -> assertThat(held.isHeld()).isTrue());
			lock.get().release();
			assertThat(context.getBean(Store.class).writes).hasSize(5)
				.contains("rebuilt@-1", "audited 42@-1")
				.anyMatch((write) -> write.startsWith("Report[name=daily]@"));
		});
	}

	@Test
	void shouldLockWithoutSpring() throws Exception {
		Store store = new Store();
		assertThat(PlainCurator.lockWithoutSpring(server.getConnectString(), new Order("7"), store)).isOne();
	}

	@Test
	void shouldSayWhyATryReturnedEmpty() throws Exception {
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new RetryOneTime(100));
				CuratorFramework other = CuratorFrameworkFactory.newClient(server.getConnectString(),
						new RetryOneTime(100))) {
			client.start();
			other.start();
			ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
			Store store = new Store();
			try (LockHandle held = new ExclusiveLockByCurator(other, "/locks").acquire("orders/42", LockMode.EXCLUSIVE)) {
				assertThat(PlainCurator.tryOnce(locks, store)).isEqualTo("try later");
			}
			try (LockHandle held = locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
				assertThat(PlainCurator.tryOnce(locks, store)).startsWith("Could not acquire the EXCLUSIVE lock on "
						+ "'orders/42' within 0s: it waited for a likely deadlock in this process: thread '"
						+ Thread.currentThread().getName() + "' waits for the EXCLUSIVE lock on 'orders/42'");
			}
			assertThat(PlainCurator.tryOnce(locks, store)).isEqualTo("acquired");
		}
	}

	@Test
	void shouldShareOneEngineBetweenTheLocksAndTheSemaphores() throws Exception {
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new RetryOneTime(100))) {
			client.start();
			List<String> heard = new CopyOnWriteArrayList<>();
			LockListener myListener = new LockListener() {

				@Override
				public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
					heard.add(lock.lockPath() + " " + lock.mode());
				}

			};
			SemaphoreByCurator semaphores = PlainCurator.sharedEngine(client, myListener);
			assertThat(semaphores.tryAcquire("reports", 2, Duration.ofSeconds(5))).hasValueSatisfying(PermitLease::close);
			assertThat(heard).containsExactly("orders/42 EXCLUSIVE", "orders/42 READ");
		}
	}

	@Test
	void shouldBuildAnEngineThatNamesItsHolder() throws Exception {
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
				new RetryOneTime(100)); LockEngine engine = PlainCurator.engineOfItsOwn(client)) {
			client.start();
			assertThat(engine.getRootPath()).isEqualTo("/locks");
			assertThat(engine.toString()).contains("local handoff on");
			try (LockHandle lock = new ExclusiveLockByCurator(engine).acquire("orders/42", LockMode.EXCLUSIVE)) {
				assertThat(new String(client.getData().forPath(lock.nodePath()), StandardCharsets.UTF_8))
					.startsWith("zklock host=")
					.endsWith(" app=billing instance=billing-1");
			}
		}
	}

	@Test
	void shouldSettleInsideTheLockAndTheTransaction() {
		this.contextRunner.run((context) -> {
			context.getBean(Settlement.class).settle("a1");
			context.getBean(Ledger.class).transfer("a1", "a2", 100);
			assertThat(context.getBean(Ledger.class).posted()).hasSize(2).last().isEqualTo("a1->a2:100@2");
		});
	}

	@Test
	void shouldRunTheAsyncAndReactiveMethodsUnderTheirLocks() {
		this.contextRunner.run((context) -> {
			Exports exports = context.getBean(Exports.class);
			assertThat(exports.export("r1").get()).isEqualTo(new Report("r1"));
			StepVerifier.create(exports.poll("news"))
				.assertNext((item) -> assertThat(item.fencingToken()).isPositive())
				.expectComplete()
				.verify(Duration.ofSeconds(10));
			StepVerifier.create(context.getBean(Inventory.class).reserve("sku-1", 3))
				.expectComplete()
				.verify(Duration.ofSeconds(10));
			assertThat(context.getBean(Store.class).stock).containsEntry("sku-1", 7);
		});
	}

	@Test
	void shouldRunTheScheduledJobsUnderTheirLocks() {
		this.contextRunner.run((context) -> {
			context.getBean(Reports.OneAtATime.class).report();
			assertThat(context.getBean(Reports.OneAtATime.class).runs()).hasSize(1);
			context.getBean(Reports.OncePerFiring.class).report();
			context.getBean(Reports.OncePerFiring.class).report();   // within 30 s: skipped
			assertThat(context.getBean(Reports.OncePerFiring.class).runs()).hasSize(1);
		});
	}

	@Test
	void shouldImportUnderTheBoundedLocks() {
		this.contextRunner.run((context) -> {
			Imports imports = context.getBean(Imports.class);
			imports.importFeed();
			imports.importFeedByHand();
			assertThat(context.getBean(Store.class).writes).filteredOn((write) -> write.startsWith("imported@"))
				.hasSize(2);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(proxyTargetClass = true)
	static class SampleBeans {

		@Bean
		Store store() {
			return new Store();
		}

		@Bean
		Shipping shipping(Store store) {
			return new Shipping(store);
		}

		@Bean
		LockCalls lockCalls() {
			return new LockCalls();
		}

		@Bean
		Ledger ledger() {
			return new Ledger();
		}

		@Bean
		Settlement settlement(Ledger ledger) {
			return new Settlement(ledger);
		}

		@Bean
		Imports imports() {
			return new Imports();
		}

		@Bean
		Exports exports() {
			return new Exports();
		}

		@Bean
		Inventory inventory(Store store) {
			return new Inventory(store);
		}

		@Bean
		Reports.OneAtATime oneAtATime() {
			return new Reports.OneAtATime();
		}

		@Bean
		Reports.OncePerFiring oncePerFiring() {
			return new Reports.OncePerFiring();
		}

		@Bean(destroyMethod = "shutdown")
		org.springframework.jdbc.datasource.embedded.EmbeddedDatabase dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

		@Bean
		PlatformTransactionManager transactionManager(javax.sql.DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

	}

}
