package io.zklock.benchmarks.leadership;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.zklock.benchmarks.server.ChildProcess;
import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.benchmarks.server.ServerKind;

/**
 * The ZooKeeper servers of scenario 15, of the section's kind but with a tick of 200 ms: a
 * 2-second session needs a tick of at most 1 s (a server clamps the session timeout to 2–20 ticks)
 * and expires sessions on tick boundaries, so the benchmarks' other servers (tick 2 s) would turn
 * it into 4 s and round its expiry up by up to a tick. {@link ServerKind#PROCESS}: one standalone
 * {@code ZooKeeperServerMain}, no fsync (as the section's process server); {@link ServerKind#ENSEMBLE}:
 * three voting {@code QuorumPeerMain} members, fsync on (as the section's ensemble). Each in a child
 * JVM on loopback with its own data directory, empty containers reaped every 100 ms.
 */
final class LeadershipServers implements AutoCloseable {

	private static final long START_TIMEOUT_SECONDS = 120;

	private final List<ChildProcess> members;

	private final List<Integer> clientPorts;

	private final String description;

	private LeadershipServers(List<ChildProcess> members, List<Integer> clientPorts, String description) {
		this.members = members;
		this.clientPorts = clientPorts;
		this.description = description;
	}

	/**
	 * Starts the servers for a section and waits until each serves.
	 * @param kind {@link ServerKind#PROCESS} or {@link ServerKind#ENSEMBLE}
	 * @return the running servers
	 * @throws IOException if a server does not start or serve in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	static LeadershipServers start(ServerKind kind) throws IOException, InterruptedException {
		if (kind == ServerKind.EMBEDDED) {
			throw new IllegalArgumentException("Scenario 15 runs on the process server and the ensemble");
		}
		boolean ensemble = kind == ServerKind.ENSEMBLE;
		int count = ensemble ? 3 : 1;
		List<Integer> clientPorts = new ArrayList<>();
		List<String> servers = new ArrayList<>();
		for (int id = 1; id <= count; id++) {
			clientPorts.add(ChildProcess.freeLoopbackPort());
			servers.add("server." + id + "=127.0.0.1:" + ChildProcess.freeLoopbackPort() + ":"
					+ ChildProcess.freeLoopbackPort());
		}
		List<ChildProcess> members = new ArrayList<>();
		try {
			for (int id = 1; id <= count; id++) {
				Path directory = Files.createTempDirectory("zklock-bench-leaders-zk" + id + "-");
				Path data = Files.createDirectories(directory.resolve("data"));
				List<String> lines = new ArrayList<>();
				lines.add("dataDir=" + data);
				lines.add("clientPort=" + clientPorts.get(id - 1));
				lines.add("clientPortAddress=127.0.0.1");
				lines.add("tickTime=200");
				lines.add("maxClientCnxns=0");
				lines.add("4lw.commands.whitelist=*");
				lines.add("admin.enableServer=false");
				if (ensemble) {
					Files.writeString(data.resolve("myid"), Integer.toString(id), StandardCharsets.UTF_8);
					lines.add("initLimit=10");
					lines.add("syncLimit=5");
					lines.addAll(servers);
				}
				Path config = directory.resolve("zoo.cfg");
				Files.write(config, lines, StandardCharsets.UTF_8);
				Map<String, String> properties = new LinkedHashMap<>();
				properties.put("zookeeper.forceSync", ensemble ? "yes" : "no");
				properties.put("zookeeper.admin.enableServer", "false");
				properties.put("znode.container.checkIntervalMs", "100");
				members.add(ChildProcess.start("zookeeper-" + id, ChildProcess.javaCommand(ensemble ? "384m" : "512m",
						properties, ensemble ? "org.apache.zookeeper.server.quorum.QuorumPeerMain"
								: "org.apache.zookeeper.server.ZooKeeperServerMain", List.of(config.toString())),
						directory));
			}
			for (int i = 0; i < count; i++) {
				ServerCounters member = new ServerCounters("127.0.0.1", List.of(clientPorts.get(i)), List.of());
				members.get(i).awaitReady(member::isServing, START_TIMEOUT_SECONDS);
			}
			String version = org.apache.zookeeper.Version.getVersion();
			String description = ensemble ? "3 voting QuorumPeerMain " + version + " members, tickTime 200 ms, forceSync=yes"
					: "standalone ZooKeeperServerMain " + version + ", tickTime 200 ms, forceSync=no";
			return new LeadershipServers(members, clientPorts, description);
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			members.forEach(ChildProcess::close);
			throw ex;
		}
	}

	/**
	 * The members' loopback client ports.
	 * @return the ports
	 */
	List<Integer> clientPorts() {
		return this.clientPorts;
	}

	/**
	 * The connect string naming every member.
	 * @return such as {@code 127.0.0.1:40001,127.0.0.1:40002}
	 */
	String connectString() {
		return this.clientPorts.stream().map((port) -> "127.0.0.1:" + port).collect(Collectors.joining(","));
	}

	/**
	 * How the servers run, for the report.
	 * @return a short description
	 */
	String description() {
		return this.description;
	}

	@Override
	public void close() {
		this.members.forEach(ChildProcess::close);
	}

}
