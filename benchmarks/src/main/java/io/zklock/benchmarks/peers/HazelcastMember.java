package io.zklock.benchmarks.peers;

import java.util.concurrent.TimeUnit;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

/**
 * One member of the benchmark's Hazelcast cluster, run by {@link HazelcastCluster} in a JVM of
 * its own: a CP member of a three-member CP subsystem, TCP/IP discovery on loopback. Prints
 * {@value #READY} once the CP subsystem's discovery is complete, then runs until stopped.
 */
public final class HazelcastMember {

	/** The line the member prints when its CP subsystem serves. */
	static final String READY = "CP-SUBSYSTEM-READY";

	private HazelcastMember() {
	}

	/**
	 * Starts the member.
	 * @param args cluster name, own port, every member's port (comma-separated), CP session
	 * time-to-live in seconds, CP session heartbeat interval in seconds
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static void main(String[] args) throws InterruptedException {
		Config config = config(args[0], Integer.parseInt(args[1]), args[2].split(","), Integer.parseInt(args[3]),
				Integer.parseInt(args[4]));
		HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
		if (!member.getCPSubsystem().getCPSubsystemManagementService().awaitUntilDiscoveryCompleted(120,
				TimeUnit.SECONDS)) {
			System.out.println("CP subsystem discovery did not complete within 120 s");
			System.exit(1);
		}
		System.out.println(READY);
		Thread.currentThread().join();
	}

	static Config config(String clusterName, int port, String[] memberPorts, int sessionTtlSeconds,
			int heartbeatSeconds) {
		Config config = new Config();
		config.setClusterName(clusterName);
		config.setProperty("hazelcast.phone.home.enabled", "false");
		config.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
		config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
		JoinConfig join = config.getNetworkConfig().getJoin();
		join.getMulticastConfig().setEnabled(false);
		join.getAutoDetectionConfig().setEnabled(false);
		for (String memberPort : memberPorts) {
			join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + memberPort);
		}
		config.getCPSubsystemConfig()
			.setCPMemberCount(memberPorts.length)
			.setSessionTimeToLiveSeconds(sessionTtlSeconds)
			.setSessionHeartbeatIntervalSeconds(heartbeatSeconds);
		return config;
	}

}
