package io.zklock.autoconfigure.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import io.zklock.autoconfigure.ZkLockStartupException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.ClassUtils;

/**
 * A standalone ZooKeeper server running in this JVM ({@link ZooKeeperServerEmbedded}), on
 * loopback, with its data in a temporary directory that is deleted when it stops. Meant for
 * development, tests and demos: locks then exclude only the clients of this one server.
 *
 * <p>
 * The server's threads are daemon threads: they do not keep the JVM alive, so a command-line
 * application that uses the server exits when its work is done (the application context's
 * shutdown hook then stops the server). While it runs, the levels of ZooKeeper's server
 * loggers are lowered to {@code WARN} ({@link EmbeddedServerLogLevels}), unless the
 * application configured them; {@link #destroy()} puts them back.
 *
 * <p>
 * Thread-safe; {@link #destroy()} may be called more than once.
 */
public final class EmbeddedZooKeeperServer implements DisposableBean {

	private static final Log logger = LogFactory.getLog(EmbeddedZooKeeperServer.class);

	private static final long START_TIMEOUT_MILLIS = 30_000;

	private final Path baseDir;

	private final ZooKeeperServerEmbedded server;

	private final String connectString;

	private final EmbeddedServerLogLevels logLevels;

	private final Object lifecycleMonitor = new Object();

	private boolean stopped;

	/**
	 * Starts the server, logging through ZooKeeper's own logger levels.
	 * @param port the client port, or 0 for a free one
	 * @throws IllegalArgumentException if the port is not between 0 and 65535
	 * @throws ZkLockStartupException if the port is taken, ZooKeeper's server libraries are
	 * missing or the server does not start
	 */
	public EmbeddedZooKeeperServer(int port) {
		this(port, EmbeddedServerLogLevels.NONE);
	}

	/**
	 * Starts the server.
	 * @param port the client port, or 0 for a free one
	 * @param logLevels the logger levels to lower while the server runs
	 * @throws IllegalArgumentException if the port is not between 0 and 65535
	 * @throws ZkLockStartupException if the port is taken, ZooKeeper's server libraries are
	 * missing or the server does not start
	 */
	EmbeddedZooKeeperServer(int port, EmbeddedServerLogLevels logLevels) {
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException(
					"Invalid port " + port + ": use 0 for a free port, or a port between 1 and 65535");
		}
		requireServerLibraries();
		int clientPort = (port != 0) ? requireFreePort(port) : freePort();
		try {
			this.baseDir = Files.createTempDirectory("zklock-embedded-zookeeper");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No temporary directory for the embedded ZooKeeper server", ex);
		}
		this.logLevels = logLevels;
		this.logLevels.lower();
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
			startOnDaemonThread(this.server);
			this.connectString = "127.0.0.1:" + clientPort;
		}
		catch (Exception ex) {
			this.logLevels.restore();
			deleteBaseDir();
			throw new ZkLockStartupException(
					"The embedded ZooKeeper server (zklock.zookeeper.embedded.enabled=true) could not start on 127.0.0.1:"
							+ clientPort + ": " + rootMessage(ex) + ".",
					"Choose another zklock.zookeeper.embedded.port (0 picks a free one), or set "
							+ "zklock.zookeeper.embedded.enabled=false and point zklock.zookeeper.connect-string at "
							+ "a ZooKeeper ensemble.",
					ex);
		}
		logger.warn("zklock started an in-process ZooKeeper server at " + this.connectString
				+ ": locks exclude only clients of this one server. For locks between separate deployments, "
				+ "set zklock.zookeeper.embedded.enabled=false and point zklock.zookeeper.connect-string at a "
				+ "ZooKeeper ensemble.");
	}

	/**
	 * Starts the server from a daemon thread. Every thread the server creates, and every
	 * thread those create, inherits that thread's daemon status (ZooKeeper sets none of its
	 * own), so the server never keeps the JVM alive.
	 */
	private static void startOnDaemonThread(ZooKeeperServerEmbedded server) throws Exception {
		CompletableFuture<Void> started = new CompletableFuture<>();
		Thread starter = new Thread(() -> {
			try {
				server.start(START_TIMEOUT_MILLIS);
				started.complete(null);
			}
			catch (Throwable ex) {
				started.completeExceptionally(ex);
			}
		}, "zklock-embedded-zookeeper-start");
		starter.setDaemon(true);
		starter.start();
		try {
			started.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			server.close();
			throw ex;
		}
		catch (ExecutionException ex) {
			server.close();
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
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

	/**
	 * Stops the server, deletes its data and puts back the logger levels it lowered. Does
	 * nothing the second time.
	 */
	@Override
	public void destroy() {
		synchronized (this.lifecycleMonitor) {
			if (this.stopped) {
				return;
			}
			this.stopped = true;
		}
		try {
			this.server.close();
		}
		finally {
			deleteBaseDir();
			this.logLevels.restore();
		}
	}

	private void deleteBaseDir() {
		try (Stream<Path> files = Files.walk(this.baseDir)) {
			files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			logger.debug("Could not delete " + this.baseDir, ex);
		}
	}

	private static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return (root.getMessage() != null) ? root.getClass().getSimpleName() + ": " + root.getMessage()
				: root.getClass().getName();
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
			throw new ZkLockStartupException(
					"The embedded ZooKeeper server (zklock.zookeeper.embedded.enabled=true) needs "
							+ String.join(" and ", missing)
							+ " on the classpath, which the zookeeper artifact declares 'provided'.",
					"Depend on io.zklock:zklock-spring-boot-starter-embedded instead of "
							+ "zklock-spring-boot-starter (it adds both, in the versions zklock manages), or set "
							+ "zklock.zookeeper.embedded.enabled=false and point zklock.zookeeper.connect-string at "
							+ "an ensemble.",
					null);
		}
	}

	/**
	 * Fails at once when the port is taken: ZooKeeper's server would only log the bind failure
	 * in its own thread and let the start run into its time-out.
	 */
	private static int requireFreePort(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(true);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
			return port;
		}
		catch (IOException ex) {
			throw new ZkLockStartupException(
					"The embedded ZooKeeper server (zklock.zookeeper.embedded.enabled=true) could not start on 127.0.0.1:"
							+ port + ": the port is taken (" + ex.getMessage() + ").",
					"Choose another zklock.zookeeper.embedded.port (0 picks a free one), or stop what listens on "
							+ port + ".",
					ex);
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
