package io.zklock.fault.ensemble;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zklock.fault.net.LaggingLink;
import org.apache.curator.test.InstanceSpec;

/**
 * An {@link InProcessEnsemble} in which every member reaches the others' quorum ports through a
 * {@link LaggingLink} of its own: its view names the link as the peer's quorum address. A
 * follower reaches the leader only through its link, so holding that link makes the follower lag
 * behind the others while it goes on serving clients. The sync limit is 50 ticks (10 s), so a
 * lagging follower is not dropped by the leader within that time.
 */
public final class LaggableEnsemble implements AutoCloseable {

	private final InProcessEnsemble ensemble;

	/** {@code links.get(m).get(p)}: member m's link to peer p's quorum port ({@code null} for m itself). */
	private final List<List<LaggingLink>> links = new ArrayList<>();

	/**
	 * Starts the ensemble and waits until it has a leader.
	 * @param size the number of members
	 */
	public LaggableEnsemble(int size) throws Exception {
		List<InstanceSpec> plain = InProcessEnsemble.specs(size, Map.of("syncLimit", "50"));
		List<InstanceSpec> linked = new ArrayList<>();
		for (int m = 0; m < size; m++) {
			List<LaggingLink> memberLinks = new ArrayList<>();
			InstanceSpec spec = plain.get(m);
			Map<String, Object> properties = new HashMap<>(spec.getCustomProperties());
			for (int p = 0; p < size; p++) {
				InstanceSpec peer = plain.get(p);
				LaggingLink link = (p == m) ? null : new LaggingLink((m + 1) + "-to-" + (p + 1), peer.getQuorumPort());
				memberLinks.add(link);
				if (link != null) {
					properties.put("server." + peer.getServerId(), String.format("127.0.0.1:%d:%d;127.0.0.1:%d",
							link.port(), peer.getElectionPort(), peer.getPort()));
				}
			}
			this.links.add(memberLinks);
			linked.add(new InstanceSpec(spec.getDataDirectory(), spec.getPort(), spec.getElectionPort(),
					spec.getQuorumPort(), true, spec.getServerId(), spec.getTickTime(), spec.getMaxClientCnxns(),
					properties, spec.getHostname()));
		}
		this.ensemble = new InProcessEnsemble(linked);
	}

	/** The ensemble, to probe and to connect to. */
	public Ensemble ensemble() {
		return this.ensemble;
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
	public void close() {
		this.ensemble.close();
		this.links.forEach((memberLinks) -> memberLinks.forEach((link) -> {
			if (link != null) {
				link.close();
			}
		}));
	}

}
