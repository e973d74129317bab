package io.zklock.autoconfigure.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import io.zklock.autoconfigure.ZkLockConfigurationException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.ClassUtils;

/**
 * A standalone ZooKeeper server running in this JVM ({@link ZooKeeperServerEmbedded}), on
 * loopback, with its data in a temporary directory that is deleted when it stops. Meant for
 * development and demos: locks then exclude only the clients of this one server.
 */
public final class EmbeddedZooKeeperServer implements DisposableBean {

	private static final Log logger = LogFactory.getLog(EmbeddedZooKeeperServer.class);

	private static final long START_TIMEOUT_MILLIS = 30_000;

	private final Path baseDir;

	private final ZooKeeperServerEmbedded server;

	private final String connectString;

	/**
	 * Starts the server.
	 * @param port the client port, or 0 for a free one
	 * @throws IllegalStateException if the server does not start
	 */
	public EmbeddedZooKeeperServer(int port) {
		if (port < 0 || port > 65535) {
			throw new ZkLockConfigurationException("zklock.zookeeper.embedded.port",
					"Invalid zklock.zookeeper.embedded.port=" + port + ".",
					"Use 0 for a free port, or a port between 1 and 65535.", null);
		}
		requireServerLibraries();
		int clientPort = (port != 0) ? port : freePort();
		try {
			this.baseDir = Files.createTempDirectory("zklock-embedded-zookeeper");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No temporary directory for the embedded ZooKeeper server", ex);
		}
		try {
			Properties configuration = new Properties();
			configuration.setProperty("clientPort", Integer.toString(clientPort));
			configuration.setProperty("clientPortAddress", "127.0.0.1");
			configuration.setProperty("dataDir", this.baseDir.resolve("data").toString());
			configuration.setProperty("admin.enableServer", "false");
			configuration.setProperty("tickTime", "2000");
			this.server = ZooKeeperServerEmbedded.builder()
				.baseDir(this.baseDir)
				.configuration(configuration)
				.exitHandler(ExitHandler.LOG_ONLY)
				.build();
			this.server.start(START_TIMEOUT_MILLIS);
			this.connectString = "127.0.0.1:" + clientPort;
		}
		catch (Exception ex) {
			deleteBaseDir();
			throw new IllegalStateException("Could not start the embedded ZooKeeper server on 127.0.0.1:" + clientPort
					+ ": " + ex.getMessage() + "; choose another zklock.zookeeper.embedded.port (0 picks a free one)",
					ex);
		}
		logger.warn("zklock started an in-process ZooKeeper server at " + this.connectString
				+ ": locks exclude only clients of this one server. For locks between separate deployments, "
				+ "set zklock.zookeeper.embedded.enabled=false and point zklock.zookeeper.connect-string at a "
				+ "ZooKeeper ensemble.");
	}

	/**
	 * The server's client address.
	 * @return {@code "127.0.0.1:<port>"}
	 */
	public String getConnectString() {
		return this.connectString;
	}

	/**
	 * The server's client port.
	 * @return the port
	 */
	public int getPort() {
		return Integer.parseInt(this.connectString.substring(this.connectString.lastIndexOf(':') + 1));
	}

	/** Stops the server and deletes its data. */
	@Override
	public void destroy() {
		this.server.close();
		deleteBaseDir();
	}

	private void deleteBaseDir() {
		try (Stream<Path> files = Files.walk(this.baseDir)) {
			files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			logger.debug("Could not delete " + this.baseDir, ex);
		}
	}

	/**
	 * ZooKeeper's server needs metrics-core and snappy-java, which the zookeeper artifact
	 * declares {@code provided}; without them it fails late, in its own threads.
	 */
	private static void requireServerLibraries() {
		List<String> missing = new ArrayList<>();
		if (!ClassUtils.isPresent("com.codahale.metrics.Counter", null)) {
			missing.add("io.dropwizard.metrics:metrics-core");
		}
		if (!ClassUtils.isPresent("org.xerial.snappy.SnappyInputStream", null)) {
			missing.add("org.xerial.snappy:snappy-java");
		}
		if (!missing.isEmpty()) {
			throw new IllegalStateException("The embedded ZooKeeper server (zklock.zookeeper.embedded.enabled=true) "
					+ "needs " + String.join(" and ", missing) + " on the classpath, which the zookeeper artifact "
					+ "declares 'provided': add them as runtime dependencies, or set "
					+ "zklock.zookeeper.embedded.enabled=false and point zklock.zookeeper.connect-string at an ensemble");
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free loopback port for the embedded ZooKeeper server", ex);
		}
	}

}
