package com.example.orders;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.test.EmbeddedZooKeeper;
import io.zklock.test.TestZooKeeper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

@EmbeddedZooKeeper
class ContextRunnerTests {

	@Test
	void shouldLock(TestZooKeeper zookeeper) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues(zookeeper.propertyValues())
			.run((context) -> {
				ILockByCurator locks = context.getBean(ILockByCurator.class);
				try (LockHandle lock = locks.tryAcquire("orders/42", LockMode.EXCLUSIVE, Duration.ofSeconds(5))
						.orElseThrow()) {
					assertThat(lock.fencingToken()).isPositive();
				}
			});
	}

}
