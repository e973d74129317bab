package io.zklock.fault.ensemble;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.server.command.FourLetterCommands;

/**
 * A ZooKeeper ensemble of real servers inside the test JVM (curator-test
 * {@link TestingCluster}), tick 200 ms. Members can be crashed and restarted; not paused (they
 * share the test's process).
 */
public final class InProcessEnsemble implements Ensemble {

	static {
		// read once per JVM: four-letter words for the probes, quick reaping of empty containers
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		FourLetterCommands.resetWhiteList();
		System.setProperty("znode.container.checkIntervalMs", "100");
		System.setProperty("zookeeper.admin.enableServer", "false");
	}

	private final TestingCluster cluster;

	private final List<InstanceSpec> specs;

	private final boolean[] running;

	/**
	 * Starts the ensemble and waits until it has a leader.
	 * @param size the number of members
	 */
	public InProcessEnsemble(int size) throws Exception {
		this(specs(size, Map.of()));
	}

	/**
	 * Starts an ensemble of members described by {@link #specs(int, Map)} (or copies of them with
	 * more properties) and waits until it has a leader.
	 */
	InProcessEnsemble(List<InstanceSpec> specs) throws Exception {
		this.specs = List.copyOf(specs);
		this.cluster = new TestingCluster(this.specs);
		this.running = new boolean[specs.size()];
		this.cluster.start();
		java.util.Arrays.fill(this.running, true);
		EnsembleProbe.awaitLeader(this);
	}

	/**
	 * The members of an ensemble on loopback, tick 200 ms, four-letter words on, sessions up to 60 s.
	 * @param extraProperties {@code zoo.cfg} properties every member adds or overrides
	 */
	static List<InstanceSpec> specs(int size, Map<String, Object> extraProperties) {
		List<InstanceSpec> specs = new ArrayList<>();
		// client, quorum and election ports below the ephemeral range: a member that restarts binds its
		// ports again, and a client connection must not have taken one meanwhile (ListenPorts)
		int[] ports = ListenPorts.below(3 * size);
		for (int member = 0; member < size; member++) {
			Map<String, Object> properties = new HashMap<>(Map.of("4lw.commands.whitelist", "*", "maxSessionTimeout",
					"60000", "clientPortAddress", "127.0.0.1"));
			properties.putAll(extraProperties);
			specs.add(new InstanceSpec(null, ports[3 * member], ports[3 * member + 1], ports[3 * member + 2], true,
					member + 1, 200, -1, properties, "127.0.0.1"));
		}
		return specs;
	}

	@Override
	public String description() {
		return "ZooKeeper " + Version.getFullVersion().split("-")[0] + " TestingCluster(" + this.specs.size() + ")";
	}

	@Override
	public List<Integer> clientPorts() {
		return this.specs.stream().map(InstanceSpec::getPort).toList();
	}

	@Override
	public synchronized void kill(int member) throws Exception {
		this.cluster.killServer(this.specs.get(member));
		this.running[member] = false;
	}

	@Override
	public synchronized void restart(int member) throws Exception {
		this.cluster.restartServer(this.specs.get(member));
		this.running[member] = true;
	}

	@Override
	public synchronized boolean isRunning(int member) {
		return this.running[member];
	}

	@Override
	public void close() {
		try {
			this.cluster.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
