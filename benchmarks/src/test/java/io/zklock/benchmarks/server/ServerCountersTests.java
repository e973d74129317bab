package io.zklock.benchmarks.server;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.benchmarks.client.ZkClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters of several servers read as one (an ensemble's members): requests and watches
 * add up, each member's own {@code mntr} is taken out, the data tree's figures are not added.
 */
@Timeout(60)
@Tag("slow")
class ServerCountersTests {

	@Test
	void shouldAddUpTheMembersButNotTheirDataTree() throws Exception {
		// two server processes: servers in one JVM share ZooKeeper's metrics, which are static
		try (ZooKeeperProcess one = ZooKeeperProcess.start(false); ZooKeeperProcess two = ZooKeeperProcess.start(false)) {
			ServerCounters both = new ServerCounters("127.0.0.1", List.of(one.port(), two.port()),
					List.of(one.pid(), two.pid()));
			ServerCounters.Mntr before = both.mntr();
			try (ZkClient first = ZkClient.connect(one.connectString());
					ZkClient second = ZkClient.connect(two.connectString())) {
				ServerCounters.Mntr connected = both.mntr();
				first.curator().checkExists().forPath("/a");
				second.curator().checkExists().forPath("/b");
				second.curator().checkExists().forPath("/c");
				ServerCounters.Mntr after = both.mntr();

				assertThat(after.packetsSince(connected)).isEqualTo(3);
				assertThat(after.requestsSince(connected)).isEqualTo(3);
				assertThat(after.get(ServerCounters.Mntr.ZNODE_COUNT))
					.isEqualTo(one.counters().mntr().get(ServerCounters.Mntr.ZNODE_COUNT));
				assertThat(connected.get(ServerCounters.Mntr.CONNECTIONS))
					.isEqualTo(before.get(ServerCounters.Mntr.CONNECTIONS) + 2);
				assertThat(after.serverCpuNanosSince(before)).isNotNegative();
			}
		}
	}

	@Test
	void shouldCountTheWatchesOnAPathAndBelowItOnly() throws Exception {
		try (InProcessZooKeeper server = InProcessZooKeeper.start();
				ZkClient first = ZkClient.connect(server.connectString());
				ZkClient second = ZkClient.connect(server.connectString())) {
			ServerCounters counters = server.counters();
			long before = counters.watchesUnder("/lock");
			first.curator().checkExists().watched().forPath("/lock");
			first.curator().checkExists().watched().forPath("/lock/a");
			second.curator().checkExists().watched().forPath("/lock/a");
			second.curator().checkExists().watched().forPath("/locked");
			second.curator().checkExists().watched().forPath("/other");

			// one per session and path: /lock, /lock/a twice; not /locked, whose name only starts alike
			assertThat(counters.watchesUnder("/lock") - before).isEqualTo(3);
			assertThat(counters.watchesUnder("/lock/a") - before).isEqualTo(2);
		}
	}

}
