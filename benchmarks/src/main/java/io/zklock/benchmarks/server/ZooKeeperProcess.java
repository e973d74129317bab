package io.zklock.benchmarks.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A standalone ZooKeeper server ({@code org.apache.zookeeper.server.ZooKeeperServerMain}) in a
 * child JVM on {@code 127.0.0.1}, started with this JVM's class path (which holds the
 * ZooKeeper jar and what its server needs). Its output goes to a log in its data directory.
 * The child is destroyed when this JVM exits, also on a crash of the driver.
 */
public final class ZooKeeperProcess implements ZooKeeperServer {

	private static final long START_TIMEOUT_SECONDS = 60;

	private final ChildProcess process;

	private final int port;

	private ZooKeeperProcess(ChildProcess process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts a server on a free loopback port and waits until it serves.
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * (otherwise ZooKeeper's default reaper runs)
	 * @return the running server
	 * @throws IOException if the child JVM cannot be started or does not come up within 60 s
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static ZooKeeperProcess start(boolean fastReaper) throws IOException, InterruptedException {
		Path directory = Files.createTempDirectory("zklock-bench-zk-");
		int port = ChildProcess.freeLoopbackPort();
		Path config = directory.resolve("zoo.cfg");
		List<String> lines = new ArrayList<>();
		lines.add("dataDir=" + directory.resolve("data"));
		lines.add("clientPort=" + port);
		lines.add("clientPortAddress=127.0.0.1");
		ServerSettings.configProperties().forEach((key, value) -> lines.add(key + "=" + value));
		Files.write(config, lines, StandardCharsets.UTF_8);
		ChildProcess process = ChildProcess.start("zookeeper",
				ChildProcess.javaCommand("512m", ServerSettings.systemProperties(fastReaper),
						"org.apache.zookeeper.server.ZooKeeperServerMain", List.of(config.toString())),
				directory);
		ZooKeeperProcess server = new ZooKeeperProcess(process, port);
		process.awaitReady(server.counters()::isServing, START_TIMEOUT_SECONDS);
		return server;
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
	public ServerCounters counters() {
		return new ServerCounters("127.0.0.1", List.of(this.port), List.of(this.process.pid()));
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
		this.process.close();
	}

}
