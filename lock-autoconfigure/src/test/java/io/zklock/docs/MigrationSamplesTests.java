package io.zklock.docs;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkServerTest;
import io.zklock.docs.MigrationSamples.CuratorBefore;
import io.zklock.docs.MigrationSamples.FromCurator;
import io.zklock.docs.MigrationSamples.FromLock4j;
import io.zklock.docs.MigrationSamples.FromRedisson;
import io.zklock.docs.MigrationSamples.FromShedLock;
import io.zklock.docs.MigrationSamples.FromSpringIntegration;
import io.zklock.docs.MigrationSamples.Shipments;
import io.zklock.lock.ILockByCurator;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the Java samples of the migration guides ({@link MigrationSamples}) in an application
 * with zklock's auto-configuration, against a real ZooKeeper server.
 */
@Timeout(60)
class MigrationSamplesTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
				LockedMethodsAutoConfiguration.class))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString(),
				"zklock.zookeeper.namespace=")
		.withBean(Shipments.class)
		.withBean(CuratorBefore.class)
		.withBean(FromCurator.class)
		.withBean(FromLock4j.class)
		.withBean(FromShedLock.class)
		.withBean(FromSpringIntegration.class)
		.withBean(FromRedisson.class);

	@Test
	void shouldShipTheWaysTheCuratorGuideShows() {
		this.contextRunner.run((context) -> {
			context.getBean(CuratorBefore.class).shipWithCurator("1");
			FromCurator guide = context.getBean(FromCurator.class);
			guide.shipWithZklock("2");
			guide.ship("3");
			assertThat(context.getBean(Shipments.class).shipped()).hasSize(3);
			// Curator's mutex and zklock's lock took the same lock path: /locks/orders/<id>
			assertThat(context.getBean(CuratorFramework.class).getChildren().forPath("/locks/orders"))
				.contains("1", "2", "3");
		});
	}

	@Test
	void shouldShipTheWaysTheRedissonGuideShows() {
		this.contextRunner.run((context) -> {
			FromRedisson guide = context.getBean(FromRedisson.class);
			guide.ship("7");
			guide.readAndWrite("8");
			guide.report();
			guide.shipLocked("9");
			assertThat(context.getBean(Shipments.class).shipped()).hasSize(4)
				.satisfiesExactly((first) -> assertThat(first).startsWith("7@"),
						(second) -> assertThat(second).startsWith("8@"),
						(third) -> assertThat(third).isEqualTo("report@1"),
						(fourth) -> assertThat(fourth).startsWith("9@"))
				.allMatch((shipment) -> Long.parseLong(shipment.substring(shipment.indexOf('@') + 1)) > 0);
			assertThat(context.getBean(ILockByCurator.class).heldLocks()).isEmpty();
		});
	}

	@Test
	void shouldShipTheWaysTheOtherGuidesShow() {
		this.contextRunner.run((context) -> {
			context.getBean(FromLock4j.class).ship("4");
			context.getBean(FromLock4j.class).shipWithin("5");
			context.getBean(FromShedLock.class).nightlyReport();
			context.getBean(FromShedLock.class).nightlyReport();   // within a minute: skipped
			context.getBean(FromSpringIntegration.class).ship("6");
			assertThat(context.getBean(Shipments.class).shipped()).hasSize(4)
				.allMatch((shipment) -> Long.parseLong(shipment.substring(shipment.indexOf('@') + 1)) > 0);
			// holdAtLeast keeps the nightly report's lock for its minute
			assertThat(context.getBean(ILockByCurator.class).heldLocks()).singleElement()
				.satisfies((held) -> assertThat(held.lockPath()).isEqualTo("nightly-report"));
		});
	}

}
