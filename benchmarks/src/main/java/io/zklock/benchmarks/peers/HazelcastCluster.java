package io.zklock.benchmarks.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;

import io.zklock.benchmarks.server.ChildProcess;
import io.zklock.benchmarks.server.ProcessCpu;
import io.zklock.benchmarks.server.RequestCounter;

/**
 * Three Hazelcast members, each in a child JVM ({@link HazelcastMember}), forming a CP subsystem
 * of three CP members: the smallest that survives the loss of one, as Hazelcast's documentation
 * asks of a CP subsystem in production. All locks live in the default CP group. The CP session
 * time-to-live is the pause test's lease (the default is 300 s), with a heartbeat every second.
 * Hazelcast's members count no requests a benchmark could read; only their CPU time is taken.
 */
final class HazelcastCluster implements AutoCloseable {

	private static final String CLUSTER = "zklock-bench";

	private static final int MEMBERS = 3;

	private final List<ChildProcess> members;

	private final List<Integer> ports;

	private final Duration sessionTtl;

	private HazelcastCluster(List<ChildProcess> members, List<Integer> ports, Duration sessionTtl) {
		this.members = members;
		this.ports = ports;
		this.sessionTtl = sessionTtl;
	}

	static HazelcastCluster start(Duration sessionTtl) throws IOException, InterruptedException {
		List<Integer> ports = new ArrayList<>();
		for (int i = 0; i < MEMBERS; i++) {
			ports.add(ChildProcess.freeLoopbackPort());
		}
		String all = ports.stream().map(String::valueOf).collect(Collectors.joining(","));
		List<ChildProcess> members = new ArrayList<>();
		try {
			for (int port : ports) {
				members.add(ChildProcess.start("hazelcast-" + port,
						ChildProcess.javaCommand("256m", Map.of("hazelcast.logging.type", "jdk"),
								HazelcastMember.class.getName(), List.of(CLUSTER, Integer.toString(port), all,
										Long.toString(sessionTtl.toSeconds()), "1")),
						Files.createTempDirectory("zklock-bench-hazelcast-")));
			}
			for (ChildProcess member : members) {
				member.awaitReady(() -> member.logText().contains(HazelcastMember.READY), 180);
			}
			return new HazelcastCluster(members, ports, sessionTtl);
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			members.forEach(ChildProcess::close);
			throw ex;
		}
	}

	/** The addresses a client is given, such as {@code 127.0.0.1:5701,127.0.0.1:5702,…}. */
	String addresses() {
		return this.ports.stream().map((port) -> "127.0.0.1:" + port).collect(Collectors.joining(","));
	}

	String description() {
		return "Hazelcast " + com.hazelcast.instance.GeneratedBuildProperties.VERSION + " (" + MEMBERS
				+ " members, each a CP member in a child JVM with -Xmx256m; CP session TTL "
				+ this.sessionTtl.toSeconds() + " s, heartbeat 1 s)";
	}

	/**
	 * A client of the cluster (a smart client: a connection to every member), as a process of a
	 * service would start it.
	 */
	static HazelcastInstance client(String addresses) {
		ClientConfig config = new ClientConfig();
		config.setClusterName(CLUSTER);
		config.setProperty("hazelcast.logging.type", "none");
		config.getNetworkConfig().addAddress(addresses.split(","));
		return HazelcastClient.newHazelcastClient(config);
	}

	/** Counts no requests; the members' CPU time. */
	RequestCounter counter() {
		List<Long> pids = this.members.stream().map(ChildProcess::pid).toList();
		return () -> new CpuOnly(ProcessCpu.nanos(pids));
	}

	@Override
	public void close() {
		this.members.forEach(ChildProcess::close);
	}

	private record CpuOnly(long cpuNanos) implements RequestCounter.Reading {

		@Override
		public long requestsSince(RequestCounter.Reading before) {
			return -1;
		}

		@Override
		public long serverCpuNanosSince(RequestCounter.Reading before) {
			return (this.cpuNanos < 0) ? -1 : this.cpuNanos - ((CpuOnly) before).cpuNanos();
		}

	}

}
