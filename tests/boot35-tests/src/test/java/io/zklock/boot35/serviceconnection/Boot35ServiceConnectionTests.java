package io.zklock.boot35.serviceconnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import io.zklock.autoconfigure.ZkLockConnectionDetails;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.TestDockerComposeConnectionSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.annotation.DirtiesContext.ClassMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * zklock's service connections on Spring Boot 3.5 (Testcontainers 1.21): a
 * {@link ServiceConnection @ServiceConnection} field of the {@code zookeeper} image, through
 * Boot 3.5's own handling of it, and a Docker Compose service of that image (and the message when
 * it publishes no host port for the client port). The container
 * stands in for one (a real ZooKeeper server in this JVM) and the compose service is a
 * running-service stand-in, so no Docker engine is needed.
 */
@SpringBootTest(classes = Boot35ServiceConnectionTests.Application.class,
		properties = { "zklock.zookeeper.connect-string=127.0.0.1:1", "spring.jmx.enabled=false" })
@Timeout(60)
@DirtiesContext(classMode = ClassMode.AFTER_EACH_TEST_METHOD) // the client closes before the server
class Boot35ServiceConnectionTests {

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
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(this.connectionDetails.getClass().getName()).contains("ZooKeeperContainerConnectionDetails");
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString())
			.isEqualTo("127.0.0.1:" + zookeeper.getMappedPort(2181));
		try (LockHandle lock = this.locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
			assertThat(this.client.getChildren().forPath("/locks/orders/42")).hasSize(1);
		}
	}

	@Test
	void shouldConnectToTheHostPortOfADockerComposeService() {
		RunningService service = new ZooKeeperService("docker.io/library/zookeeper:3.9.3",
				Map.of("ZOO_SERVERS", "server.1=0.0.0.0:2888:3888;2182"), 2182, 32785);
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(null)
			.getConnectionDetails(TestDockerComposeConnectionSource.of(service), false);
		assertThat(((ZkLockConnectionDetails) details.get(ZkLockConnectionDetails.class)).getConnectString())
			.isEqualTo("127.0.0.1:32785");
		assertThat(new ConnectionDetailsFactories(null)
			.getConnectionDetails(TestDockerComposeConnectionSource
				.of(new ZooKeeperService("confluentinc/cp-zookeeper:7.9.0", Map.of(), 2181, 32786)), false))
			.doesNotContainKey(ZkLockConnectionDetails.class);
	}

	@Test
	void shouldSayWhichPortToPublishWhenTheClientPortIsNot() {
		RunningService service = new ZooKeeperService("zookeeper:3.9", Map.of(), 8080, 32786);
		assertThatIllegalStateException()
			.isThrownBy(() -> new ConnectionDetailsFactories(null)
				.getConnectionDetails(TestDockerComposeConnectionSource.of(service), false))
			.withMessage("The service 'zookeeper' of the Docker Compose file (docker.io/library/zookeeper:3.9) "
					+ "publishes no host port for ZooKeeper's client port 2181, so zklock cannot reach it. "
					+ "Add 'ports: [\"2181\"]' to the service.");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

	/** A Docker Compose service as Boot reports it, with one published port. */
	record ZooKeeperService(String imageName, Map<String, String> env, int containerPort,
			int hostPort) implements RunningService {

		@Override
		public String name() {
			return "zookeeper";
		}

		@Override
		public ImageReference image() {
			return ImageReference.of(this.imageName);
		}

		@Override
		public String host() {
			return "127.0.0.1";
		}

		@Override
		public Map<String, String> labels() {
			return Map.of();
		}

		@Override
		public ConnectionPorts ports() {
			return new ConnectionPorts() {

				@Override
				public int get(int containerPort) {
					if (containerPort != ZooKeeperService.this.containerPort) {
						// as Boot's own ports of a running service say it
						throw new IllegalStateException("No host port mapping found for container port " + containerPort);
					}
					return ZooKeeperService.this.hostPort;
				}

				@Override
				public List<Integer> getAll() {
					return List.of(ZooKeeperService.this.hostPort);
				}

				@Override
				public List<Integer> getAll(String protocol) {
					return getAll();
				}

			};
		}

	}

	/** A container of the zookeeper image without Docker: a real server on 127.0.0.1 in this JVM. */
	static final class ZooKeeperContainerStandIn extends GenericContainer<ZooKeeperContainerStandIn> {

		private final String imageName;

		private volatile TestingServer server;

		ZooKeeperContainerStandIn(String imageName) {
			super(DockerImageName.parse(imageName));
			this.imageName = imageName;
		}

		@Override
		public String getDockerImageName() {
			return this.imageName;
		}

		@Override
		public void start() {
			try {
				if (this.server == null) {
					this.server = new TestingServer(new InstanceSpec(null, 0, -1, -1, true, -1, -1, -1,
							Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public void stop() {
			try {
				if (this.server != null) {
					this.server.close();
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public boolean isRunning() {
			return this.server != null;
		}

		@Override
		public String getHost() {
			return "127.0.0.1";
		}

		@Override
		public Integer getMappedPort(int originalPort) {
			assertThat(originalPort).isEqualTo(2181);
			return this.server.getPort();
		}

	}

}
