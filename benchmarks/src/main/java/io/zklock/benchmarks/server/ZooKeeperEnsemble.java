package io.zklock.benchmarks.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A real ZooKeeper ensemble on loopback: three voting members and one observer, each
 * {@code QuorumPeerMain} in a child JVM of its own with its own data directory, the
 * transaction log fsynced before a write is acknowledged ({@code zookeeper.forceSync=yes}, as
 * production runs it). Client number {@code i} of a load connects to member {@code i mod 4},
 * so clients are spread over the members as a deployment's are (a client on a follower or
 * the observer has its writes forwarded to the leader). Its counters add up the members'.
 */
public final class ZooKeeperEnsemble implements ZooKeeperServer {

	/** Voting members. */
	static final int VOTERS = 3;

	/** Observers (non-voting members that serve clients and follow the leader's commits). */
	static final int OBSERVERS = 1;

	private static final long START_TIMEOUT_SECONDS = 120;

	private final List<ChildProcess> members;

	private final List<Integer> clientPorts;

	private ZooKeeperEnsemble(List<ChildProcess> members, List<Integer> clientPorts) {
		this.members = members;
		this.clientPorts = clientPorts;
	}

	/**
	 * Starts the ensemble and waits until every member serves.
	 * @param fastReaper whether empty containers are reaped every 250 ms without a rate limit
	 * @return the running ensemble
	 * @throws IOException if a member does not start or serve within 120 s
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static ZooKeeperEnsemble start(boolean fastReaper) throws IOException, InterruptedException {
		int count = VOTERS + OBSERVERS;
		List<Integer> clientPorts = new ArrayList<>();
		List<String> servers = new ArrayList<>();
		for (int id = 1; id <= count; id++) {
			clientPorts.add(ChildProcess.freeLoopbackPort());
			servers.add("server." + id + "=127.0.0.1:" + ChildProcess.freeLoopbackPort() + ":"
					+ ChildProcess.freeLoopbackPort() + ((id > VOTERS) ? ":observer" : ""));
		}
		List<ChildProcess> members = new ArrayList<>();
		try {
			for (int id = 1; id <= count; id++) {
				Path directory = Files.createTempDirectory("zklock-bench-zk" + id + "-");
				Path data = Files.createDirectories(directory.resolve("data"));
				Files.writeString(data.resolve("myid"), Integer.toString(id), StandardCharsets.UTF_8);
				List<String> lines = new ArrayList<>();
				lines.add("dataDir=" + data);
				lines.add("clientPort=" + clientPorts.get(id - 1));
				lines.add("clientPortAddress=127.0.0.1");
				lines.add("initLimit=10");
				lines.add("syncLimit=5");
				if (id > VOTERS) {
					lines.add("peerType=observer");
				}
				ServerSettings.configProperties().forEach((key, value) -> lines.add(key + "=" + value));
				lines.addAll(servers);
				Path config = directory.resolve("zoo.cfg");
				Files.write(config, lines, StandardCharsets.UTF_8);
				members.add(ChildProcess.start("zookeeper-" + id,
						ChildProcess.javaCommand("384m", ServerSettings.systemProperties(fastReaper, true),
								"org.apache.zookeeper.server.quorum.QuorumPeerMain", List.of(config.toString())),
						directory));
			}
			ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(members, clientPorts);
			for (int i = 0; i < count; i++) {
				ServerCounters member = new ServerCounters("127.0.0.1", List.of(clientPorts.get(i)), List.of());
				members.get(i).awaitReady(member::isServing, START_TIMEOUT_SECONDS);
			}
			return ensemble;
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			members.forEach(ChildProcess::close);
			throw ex;
		}
	}

	@Override
	public String connectString() {
		return this.clientPorts.stream().map((port) -> "127.0.0.1:" + port).collect(Collectors.joining(","));
	}

	@Override
	public String connectString(int client) {
		return "127.0.0.1:" + this.clientPorts.get(client % this.clientPorts.size());
	}

	/**
	 * The first member's client port; the counters read every member.
	 * @return a client port
	 */
	@Override
	public int port() {
		return this.clientPorts.get(0);
	}

	@Override
	public ServerCounters counters() {
		return new ServerCounters("127.0.0.1", this.clientPorts,
				this.members.stream().map(ChildProcess::pid).toList());
	}

	@Override
	public String description() {
		return "ensemble of " + VOTERS + " voting members and " + OBSERVERS + " observer (QuorumPeerMain "
				+ org.apache.zookeeper.Version.getVersion() + ", each in a child JVM with -Xmx384m and its own data "
				+ "directory, forceSync=yes, on 127.0.0.1; client i on member i mod " + (VOTERS + OBSERVERS) + ")";
	}

	/**
	 * The role each member has now.
	 * @return such as {@code [follower, follower, leader, observer]}
	 * @throws IOException if a member does not answer
	 */
	public List<String> roles() throws IOException {
		ServerCounters counters = counters();
		List<String> roles = new ArrayList<>();
		for (int port : this.clientPorts) {
			roles.add(counters.mntrOf(port).getOrDefault("zk_server_state", "?"));
		}
		return roles;
	}

	@Override
	public void close() {
		this.members.forEach(ChildProcess::close);
	}

}
