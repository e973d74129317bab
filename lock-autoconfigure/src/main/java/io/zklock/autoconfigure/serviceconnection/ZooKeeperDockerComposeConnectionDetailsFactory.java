package io.zklock.autoconfigure.serviceconnection;

import io.zklock.autoconfigure.ZkLockConnectionDetails;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * {@link DockerComposeConnectionDetailsFactory} that points zklock's client at a service of
 * {@code compose.yaml} running the official {@code zookeeper} image (or labelled
 * {@code org.springframework.boot.service-connection: zookeeper}): the host Spring Boot's Docker
 * Compose support reports and the host port published for ZooKeeper's client port (2181, or
 * the one its {@code ZOO_SERVERS} / {@code ZOO_CFG_EXTRA} environment names).
 */
class ZooKeeperDockerComposeConnectionDetailsFactory
		extends DockerComposeConnectionDetailsFactory<ZkLockConnectionDetails> {

	ZooKeeperDockerComposeConnectionDetailsFactory() {
		super(ZooKeeperServiceConnections.IMAGE_NAME, ZooKeeperServiceConnections.REQUIRED_CLASS);
	}

	@Override
	protected ZkLockConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
		return new ZooKeeperDockerComposeConnectionDetails(source.getRunningService());
	}

	/**
	 * {@link ZkLockConnectionDetails} of a running Docker Compose service.
	 */
	static final class ZooKeeperDockerComposeConnectionDetails extends DockerComposeConnectionDetails
			implements ZkLockConnectionDetails {

		private final String connectString;

		ZooKeeperDockerComposeConnectionDetails(RunningService service) {
			super(service);
			int clientPort = new ZooKeeperImageEnvironment(service.env()).getClientPort();
			int hostPort;
			try {
				hostPort = service.ports().get(clientPort);
			}
			catch (IllegalStateException ex) {
				throw new IllegalStateException("The service '" + service.name() + "' of the Docker Compose file ("
						+ service.image() + ") publishes no host port for ZooKeeper's client port " + clientPort
						+ ", so zklock cannot reach it. Add 'ports: [\"" + clientPort + "\"]' to the service.", ex);
			}
			this.connectString = ZooKeeperServiceConnections.hostAndPort(service.host(), hostPort);
		}

		@Override
		public String getConnectString() {
			return this.connectString;
		}

	}

}
