package io.zklock.benchmarks.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A standalone ZooKeeper server ({@code org.apache.zookeeper.server.ZooKeeperServerMain}) in a
 * child JVM on {@code 127.0.0.1}, started with this JVM's class path (which holds the
 * ZooKeeper jar and what its server needs). Its output goes to {@code zookeeper.log} in its
 * data directory. The child is destroyed when this JVM exits, also on a crash of the driver.
 */
public final class ZooKeeperProcess implements ZooKeeperServer {

	private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

	private final Process process;

	private final Path directory;

	private final int port;

	private final Thread shutdownHook;

	private ZooKeeperProcess(Process process, Path directory, int port) {
		this.process = process;
		this.directory = directory;
		this.port = port;
		this.shutdownHook = new Thread(process::destroyForcibly, "zookeeper-process-reaper");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts a server on a free loopback port and waits until it answers {@code ruok}.
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * (otherwise ZooKeeper's default reaper runs)
	 * @return the running server
	 * @throws IOException if the child JVM cannot be started or does not come up within 60 s
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static ZooKeeperProcess start(boolean fastReaper) throws IOException, InterruptedException {
		Path directory = Files.createTempDirectory("zklock-bench-zk-");
		int port = freeLoopbackPort();
		Path config = directory.resolve("zoo.cfg");
		List<String> lines = new ArrayList<>();
		lines.add("dataDir=" + directory.resolve("data"));
		lines.add("clientPort=" + port);
		lines.add("clientPortAddress=127.0.0.1");
		ServerSettings.configProperties().forEach((key, value) -> lines.add(key + "=" + value));
		Files.write(config, lines, StandardCharsets.UTF_8);
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xms256m");
		command.add("-Xmx512m");
		for (Map.Entry<String, String> property : ServerSettings.systemProperties(fastReaper).entrySet()) {
			command.add("-D" + property.getKey() + "=" + property.getValue());
		}
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add("org.apache.zookeeper.server.ZooKeeperServerMain");
		command.add(config.toString());
		Path log = directory.resolve("zookeeper.log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		ZooKeeperProcess server = new ZooKeeperProcess(process, directory, port);
		server.awaitReady(log);
		return server;
	}

	private void awaitReady(Path log) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
		ServerCounters counters = counters();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				close();
				throw new IOException("The ZooKeeper server process exited with code " + this.process.exitValue()
						+ " before it served; its log:\n" + Files.readString(log));
			}
			if (counters.isServing()) {
				return;
			}
			Thread.sleep(100);
		}
		String output = Files.readString(log);
		close();
		throw new IOException("The ZooKeeper server process on 127.0.0.1:" + this.port
				+ " did not answer 'ruok' within 60 s; its log:\n" + output);
	}

	private static int freeLoopbackPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@Override
	public String connectString() {
		return "127.0.0.1:" + this.port;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public String description() {
		return "standalone process (ZooKeeperServerMain " + org.apache.zookeeper.Version.getVersion()
				+ " in a child JVM, -Xmx512m, on 127.0.0.1)";
	}

	/**
	 * The process id of the server's JVM.
	 * @return the pid
	 */
	public long pid() {
		return this.process.pid();
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs anyway
		}
		deleteRecursively(this.directory);
	}

	private static void deleteRecursively(Path directory) {
		try (var paths = Files.walk(directory)) {
			paths.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not delete " + directory, ex);
		}
	}

}
