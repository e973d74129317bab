package io.zklock.fault.ensemble;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zklock.fault.net.LaggingLink;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.Version;
import org.apache.zookeeper.server.command.FourLetterCommands;

/**
 * An in-process ensemble ({@link TestingCluster}, tick 200 ms) in which every member reaches the
 * others' quorum ports through a {@link LaggingLink} of its own: its view names the link as the
 * peer's quorum address. A follower reaches the leader only through its link, so holding that
 * link makes the follower lag behind the others while it goes on serving clients. The sync limit
 * is 50 ticks (10 s), so a lagging follower is not dropped by the leader within that time.
 */
public final class LaggableEnsemble implements Ensemble {

	static {
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		FourLetterCommands.resetWhiteList();
		System.setProperty("zookeeper.admin.enableServer", "false");
	}

	private final TestingCluster cluster;

	private final List<InstanceSpec> specs = new ArrayList<>();

	/** {@code links.get(m).get(p)}: member m's link to peer p's quorum port ({@code null} for m itself). */
	private final List<List<LaggingLink>> links = new ArrayList<>();

	private final boolean[] running;

	/**
	 * Starts the ensemble and waits until it has a leader.
	 * @param size the number of members
	 */
	public LaggableEnsemble(int size) throws Exception {
		List<InstanceSpec> ports = new ArrayList<>();
		for (int id = 1; id <= size; id++) {
			ports.add(new InstanceSpec(null, -1, -1, -1, true, id, 200, -1, null, "127.0.0.1"));
		}
		for (int m = 0; m < size; m++) {
			List<LaggingLink> memberLinks = new ArrayList<>();
			Map<String, Object> properties = new HashMap<>(Map.of("4lw.commands.whitelist", "*", "maxSessionTimeout",
					"60000", "clientPortAddress", "127.0.0.1", "syncLimit", "50"));
			for (int p = 0; p < size; p++) {
				InstanceSpec peer = ports.get(p);
				LaggingLink link = (p == m) ? null
						: new LaggingLink((m + 1) + "-to-" + (p + 1), peer.getQuorumPort());
				memberLinks.add(link);
				if (link != null) {
					properties.put("server." + peer.getServerId(), String.format("127.0.0.1:%d:%d;127.0.0.1:%d",
							link.port(), peer.getElectionPort(), peer.getPort()));
				}
			}
			this.links.add(memberLinks);
			InstanceSpec spec = ports.get(m);
			this.specs.add(new InstanceSpec(spec.getDataDirectory(), spec.getPort(), spec.getElectionPort(),
					spec.getQuorumPort(), true, spec.getServerId(), 200, -1, properties, "127.0.0.1"));
		}
		this.cluster = new TestingCluster(this.specs);
		this.running = new boolean[size];
		this.cluster.start();
		java.util.Arrays.fill(this.running, true);
		EnsembleProbe.awaitLeader(this);
	}

	/**
	 * The link through which {@code member} follows {@code leader}.
	 * @throws IllegalArgumentException if the two are the same member
	 */
	public LaggingLink link(int member, int leader) {
		LaggingLink link = this.links.get(member).get(leader);
		if (link == null) {
			throw new IllegalArgumentException("Member " + member + " has no link to itself");
		}
		return link;
	}

	@Override
	public String description() {
		return "ZooKeeper " + Version.getFullVersion().split("-")[0] + " TestingCluster(" + this.specs.size()
				+ ") with lagging links";
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
		this.links.forEach((memberLinks) -> memberLinks.forEach((link) -> {
			if (link != null) {
				link.close();
			}
		}));
	}

}
