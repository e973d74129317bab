package io.zklock.autoconfigure.serviceconnection;

import org.testcontainers.containers.Container;

import io.zklock.autoconfigure.ZkLockConnectionDetails;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

/**
 * {@link ContainerConnectionDetailsFactory} that points zklock's client at a
 * {@link ServiceConnection @ServiceConnection} container of the official {@code zookeeper}
 * image (a {@code GenericContainer}; Testcontainers has no ZooKeeper module): the
 * container's host and the host port mapped to ZooKeeper's client port (2181, or the one its
 * {@code ZOO_SERVERS} / {@code ZOO_CFG_EXTRA} environment names). Another image is matched with
 * {@code @ServiceConnection(name = "zookeeper")}.
 */
class ZooKeeperContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<Container<?>, ZkLockConnectionDetails> {

	ZooKeeperContainerConnectionDetailsFactory() {
		super(ZooKeeperServiceConnections.IMAGE_NAME, ZooKeeperServiceConnections.REQUIRED_CLASS);
	}

	@Override
	protected ZkLockConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
		return new ZooKeeperContainerConnectionDetails(source);
	}

	/**
	 * {@link ZkLockConnectionDetails} of a running container, read once the container has
	 * started (which Spring Boot does when the client asks).
	 */
	private static final class ZooKeeperContainerConnectionDetails extends ContainerConnectionDetails<Container<?>>
			implements ZkLockConnectionDetails {

		private ZooKeeperContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
			super(source);
		}

		@Override
		public String getConnectString() {
			Container<?> container = getContainer();
			int clientPort = new ZooKeeperImageEnvironment(container.getEnvMap()).getClientPort();
			return ZooKeeperServiceConnections.hostAndPort(container.getHost(), container.getMappedPort(clientPort));
		}

	}

}
