package io.zklock.autoconfigure.serviceconnection;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockConnectionDetails;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ServiceConnection @ServiceConnection} field of the {@code zookeeper} image, as a user
 * writes it, through Spring Boot's own Testcontainers support: the container stands in for one
 * (a real ZooKeeper server in this JVM), so no Docker engine is needed. The connection details
 * win over {@code zklock.zookeeper.connect-string}, as Spring Boot's service connections do.
 */
@SpringBootTest(classes = ZooKeeperServiceConnectionTests.Application.class,
		properties = { "zklock.zookeeper.connect-string=127.0.0.1:1", "spring.jmx.enabled=false" })
@Timeout(60)
@DirtiesContext(classMode = ClassMode.AFTER_EACH_TEST_METHOD) // the client closes before the server
@Tag("slow")
class ZooKeeperServiceConnectionTests {

	@ServiceConnection
	static final ZooKeeperContainerStandIn zookeeper = new ZooKeeperContainerStandIn("zookeeper:3.9");

	@Autowired
	private ZkLockConnectionDetails connectionDetails;

	@Autowired
	private CuratorFramework client;

	@Autowired
	private ILockByCurator locks;

	@AfterAll
	static void stopContainer() {
		zookeeper.stop();
	}

	@Test
	void shouldLockOnTheServerOfTheContainer() throws Exception {
		assertThat(this.connectionDetails.getClass().getName()).contains("ZooKeeperContainerConnectionDetails");
		assertThat(this.connectionDetails.getConnectString()).isEqualTo(zookeeper.serverConnectString());
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString())
			.isEqualTo(zookeeper.serverConnectString());
		try (LockHandle lock = this.locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
			assertThat(lock.isHeld()).isTrue();
			assertThat(this.client.getChildren().forPath("/locks/orders/42")).hasSize(1);
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
