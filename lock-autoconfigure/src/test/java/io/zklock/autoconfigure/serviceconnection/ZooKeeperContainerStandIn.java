package io.zklock.autoconfigure.serviceconnection;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.curator.test.TestingServer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import io.zklock.fixtures.ZooKeeperServers;

/**
 * A Testcontainers container of the {@code zookeeper} image without Docker: starting it starts
 * a real ZooKeeper server in this JVM on 127.0.0.1, and its host and mapped client port are that
 * server's. What a {@code ContainerConnectionDetailsFactory} reads of a container (image name,
 * environment, host, mapped port) is what this answers.
 */
final class ZooKeeperContainerStandIn extends GenericContainer<ZooKeeperContainerStandIn> {

	private final String imageName;

	private int clientPort = 2181;

	private volatile TestingServer server;

	ZooKeeperContainerStandIn(String imageName) {
		super(DockerImageName.parse(imageName));
		this.imageName = imageName;
	}

	/** The container port the server listens on inside the "container". */
	ZooKeeperContainerStandIn withClientPort(int clientPort) {
		this.clientPort = clientPort;
		return this;
	}

	@Override
	public String getDockerImageName() {
		return this.imageName;
	}

	@Override
	public void start() {
		if (this.server == null) {
			this.server = ZooKeeperServers.startOnLoopback();
		}
	}

	@Override
	public void stop() {
		TestingServer running = this.server;
		this.server = null;
		if (running != null) {
			try {
				running.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
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
		if (this.server == null) {
			throw new IllegalStateException("Mapped port can only be obtained after the container is started");
		}
		if (originalPort != this.clientPort) {
			throw new IllegalArgumentException("Requested port (" + originalPort + ") is not mapped");
		}
		return this.server.getPort();
	}

	/** The server's own connect string, to check against. */
	String serverConnectString() {
		return this.server.getConnectString();
	}

}
