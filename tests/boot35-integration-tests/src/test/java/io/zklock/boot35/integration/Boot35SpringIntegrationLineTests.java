package io.zklock.boot35.integration;

import java.util.Arrays;

import io.zklock.integration.FencedLock;
import io.zklock.integration.ZkLockRegistry;
import io.zklock.lock.ExclusiveLockByCurator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.SpringBootVersion;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The class path this module runs zklock-spring-integration's tests on: Boot 3.5 and Spring
 * Integration 6.5, which zklock-spring-integration was not compiled against.
 */
@Timeout(60)
class Boot35SpringIntegrationLineTests {

	@Test
	void shouldRunOnBoot35AndSpringIntegration65() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(LockRegistry.class.getPackage().getImplementationVersion()).startsWith("6.5.");
		System.out.println("[versions] Spring Boot " + SpringBootVersion.getVersion() + ", Spring Integration "
				+ LockRegistry.class.getPackage().getImplementationVersion());
	}

	@Test
	void shouldHandOutPlainFencedLocksWithoutSpringIntegration7sDistributedLock() throws Exception {
		assertThat(ClassUtils.isPresent("org.springframework.integration.support.locks.DistributedLock", null))
			.as("DistributedLock on Spring Integration 6.5").isFalse();
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
						new ExponentialBackoffRetry(100, 3))) {
			client.start();
			FencedLock lock = new ZkLockRegistry(new ExclusiveLockByCurator(client, "/locks")).obtain("orders");
			assertThat(Arrays.stream(lock.getClass().getInterfaces()).map(Class::getSimpleName))
				.containsExactly("FencedLock");
			assertThat(lock.tryLock()).isTrue();
			assertThat(lock.fencingToken()).isPositive();
			lock.unlock();
		}
	}

}
