package io.zklock.autoconfigure.serviceconnection;

import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.fixtures.ZooKeeperServers;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkLockConnectionDetails;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.TestDockerComposeConnectionSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ZooKeeperDockerComposeConnectionDetailsFactory}, found as Spring Boot finds it
 * (in {@code META-INF/spring.factories}) and given running-service stand-ins, as Spring Boot's
 * Docker Compose support would after {@code docker compose up}.
 */
@Timeout(60)
class ZooKeeperDockerComposeConnectionDetailsFactoryTests {

	private static TestingServer server;

	@BeforeAll
	static void startServer() {
		server = ZooKeeperServers.startOnLoopback();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void shouldConnectToTheHostPortPublishedForTheClientPort() {
		ZkLockConnectionDetails details = connectionDetails(RunningServiceStandIn.zookeeper("zookeeper:3.9", 32781));
		assertThat(details.getConnectString()).isEqualTo("127.0.0.1:32781");
	}

	@Test
	void shouldMatchTheOfficialImageWithRegistryAndTag() {
		assertThat(connectionDetails(RunningServiceStandIn.zookeeper("docker.io/library/zookeeper:3.9.3", 32782))
			.getConnectString()).isEqualTo("127.0.0.1:32782");
	}

	@Test
	void shouldLeaveOtherImagesAlone() {
		assertThat(allConnectionDetails(RunningServiceStandIn.zookeeper("confluentinc/cp-zookeeper:7.9.0", 32783)))
			.doesNotContainKey(ZkLockConnectionDetails.class);
	}

	@Test
	void shouldMatchAnotherImageLabelledAsZookeeper() {
		RunningService service = RunningServiceStandIn.zookeeper("registry.example.com/zk:3.9", 32784)
			.withLabels(Map.of("org.springframework.boot.service-connection", "zookeeper"));
		assertThat(connectionDetails(service).getConnectString()).isEqualTo("127.0.0.1:32784");
	}

	@Test
	void shouldUseTheClientPortTheServicesEnvironmentNames() {
		RunningService service = RunningServiceStandIn.zookeeper("zookeeper:3.9", 0)
			.withEnv(Map.of("ZOO_SERVERS", "server.1=0.0.0.0:2888:3888;2182"))
			.withPublishedPort(2182, 32785);
		assertThat(connectionDetails(service).getConnectString()).isEqualTo("127.0.0.1:32785");
	}

	@Test
	void shouldSayWhichPortToPublishWhenTheClientPortIsNot() {
		RunningService service = RunningServiceStandIn.zookeeper("zookeeper:3.9", 0).withPublishedPort(8080, 32786);
		assertThatIllegalStateException().isThrownBy(() -> connectionDetails(service))
			.withMessage("The service 'zookeeper' of the Docker Compose file (docker.io/library/zookeeper:3.9) "
					+ "publishes no host port for ZooKeeper's client port 2181, so zklock cannot reach it. "
					+ "Add 'ports: [\"2181\"]' to the service.");
	}

	@Test
	void shouldLockOnTheServerOfTheService() {
		ZkLockConnectionDetails details = connectionDetails(
				RunningServiceStandIn.zookeeper("zookeeper:3.9", server.getPort()));
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=127.0.0.1:1")
			.withBean(ZkLockConnectionDetails.class, () -> details)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
					.isEqualTo("127.0.0.1:" + server.getPort());
				try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("orders/42", LockMode.EXCLUSIVE)) {
					assertThat(lock.isHeld()).isTrue();
					assertThat(context.getBean(CuratorFramework.class).getChildren().forPath("/locks/orders/42"))
						.hasSize(1);
				}
			});
	}

	private static ZkLockConnectionDetails connectionDetails(RunningService service) {
		Map<Class<?>, ConnectionDetails> all = allConnectionDetails(service);
		assertThat(all).containsKey(ZkLockConnectionDetails.class);
		return (ZkLockConnectionDetails) all.get(ZkLockConnectionDetails.class);
	}

	private static Map<Class<?>, ConnectionDetails> allConnectionDetails(RunningService service) {
		return new ConnectionDetailsFactories(null)
			.getConnectionDetails(TestDockerComposeConnectionSource.of(service), false);
	}

}
