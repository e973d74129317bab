package io.zklock.lock.internal;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ListingEvidence} on a real server's listings: a listing's evidence is our node's
 * {@code czxid} while no child has left the lock path since our create (later creates do not
 * matter), and the lock path's {@code pzxid} once one has; children that are not lock nodes never
 * make it take the {@code czxid}.
 */
class ListingEvidenceTests {

	@Test
	@Timeout(30)
	void shouldTakeOurCzxidUntilAChildLeavesTheLockPath() throws Exception {
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(),
						new RetryOneTime(100))) {
			client.start();
			String path = "/locks/evidence";
			client.create().creatingParentsIfNeeded().forPath(path);
			Stat first = new Stat();
			String a = client.create().storingStatIn(first).withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(path + "/x-lock-");
			Stat second = new Stat();
			String b = client.create().storingStatIn(second).withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(path + "/x-lock-");
			client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(path + "/x-__READ__");

			Stat parent = new Stat();
			List<String> children = client.getChildren().storingStatIn(parent).forPath(path);
			assertThat(parent.getPzxid()).isGreaterThan(second.getCzxid());
			assertThat(ListingEvidence.of(children, name(a), parent, first.getCzxid()))
				.as("only creates since ours").isEqualTo(first.getCzxid());
			assertThat(ListingEvidence.of(children, name(b), parent, second.getCzxid())).isEqualTo(second.getCzxid());

			client.delete().forPath(a);
			children = client.getChildren().storingStatIn(parent).forPath(path);
			assertThat(ListingEvidence.of(children, name(b), parent, second.getCzxid()))
				.as("a child left since our create").isEqualTo(parent.getPzxid())
				.isGreaterThan(second.getCzxid());

			Stat third = new Stat();
			String c = client.create().storingStatIn(third).withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(path + "/x-lock-");
			client.create().forPath(path + "/sub-9999999999");
			children = client.getChildren().storingStatIn(parent).forPath(path);
			assertThat(ListingEvidence.of(children, name(c), parent, third.getCzxid()))
				.as("a child that is no lock node was created since: no certainty").isEqualTo(parent.getPzxid());
		}
	}

	private static String name(String nodePath) {
		return ZKPaths.getNodeFromPath(nodePath);
	}

}
