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
 * {@code czxid} while no child ever left the lock path (later creates do not matter), and the lock
 * path's {@code pzxid} once one has, even before our create; and the server arithmetic it rests
 * on: the sequence suffix counts the creates, the reported {@code cversion} counts creates and
 * deletes, {@code 2 × creates − children} (the protocol page once said the
 * {@code cversion} told a deletion since our create, which it cannot).
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
			assertThat(children).hasSize(3);
			assertThat(ListingEvidence.of(parent, first.getCzxid())).as("only creates since ours")
				.isEqualTo(first.getCzxid());
			assertThat(ListingEvidence.of(parent, second.getCzxid())).isEqualTo(second.getCzxid());

			client.delete().forPath(a);
			client.getChildren().storingStatIn(parent).forPath(path);
			assertThat(parent.getCversion()).as("creates and deletes, 2 × 3 creates − 2 children").isEqualTo(4);
			assertThat(ListingEvidence.of(parent, second.getCzxid())).as("a child left since our create")
				.isEqualTo(parent.getPzxid())
				.isGreaterThan(second.getCzxid());

			Stat third = new Stat();
			String c = client.create().storingStatIn(third).withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
				.forPath(path + "/x-lock-");
			assertThat(name(c)).as("the sequence suffix counts creates only").endsWith("0000000003");
			client.getChildren().storingStatIn(parent).forPath(path);
			assertThat(ListingEvidence.of(parent, third.getCzxid())).as("nothing changed since our create")
				.isEqualTo(third.getCzxid())
				.isEqualTo(parent.getPzxid());
			client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(path + "/x-lock-");
			client.getChildren().storingStatIn(parent).forPath(path);
			assertThat(ListingEvidence.of(parent, third.getCzxid()))
				.as("only a create since ours, but the lock path lost a node before: not told apart")
				.isEqualTo(parent.getPzxid())
				.isGreaterThan(third.getCzxid());
		}
	}

	private static String name(String nodePath) {
		return ZKPaths.getNodeFromPath(nodePath);
	}

}
