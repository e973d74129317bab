package io.zklock.lock;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lock-node create whose reply is lost: the server made the node, the client heard only
 * a connection loss. Simulated at the client boundary, on a real server: the first
 * sequential create under the lock path reaches the server and then reports
 * {@code CONNECTIONLOSS} ({@link FaultyZooKeeper}). Curator's protected mode finds the node by
 * its {@code _c_<uuid>} prefix and adopts it, so no orphan node blocks the queue, and the
 * fencing token is still the node's {@code czxid}.
 */
@Timeout(60)
class LostCreateReplyTests extends ZkServerTest {

	@Test
	void shouldLeaveNoOrphanNodeWhenACreateReplyIsLost() throws Exception {
		FaultyZooKeeper.Faults faults = new FaultyZooKeeper.Faults("/zklock/locks/jobs");
		faults.dropNextCreateReply.set(true);
		CuratorFramework lossy = this.clients.newClient((builder) -> builder
			.zookeeperFactory(FaultyZooKeeper.factory(faults))
			.retryPolicy(new RetryNTimes(3, 50)));
		CuratorFramework other = this.clients.newClient();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(lossy, "/locks");

		LockHandle lock = locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow();
		assertThat(faults.createRepliesDropped).as("the fault was injected").hasValue(1);
		List<String> nodes = other.getChildren().forPath("/locks/jobs");
		assertThat(nodes).as("one node: the lost reply's node was adopted, not duplicated").hasSize(1);
		Stat stat = other.checkExists().forPath("/locks/jobs/" + nodes.get(0));
		assertThat(lock.nodePath()).endsWith(nodes.get(0));
		assertThat(lock.fencingToken()).isEqualTo(stat.getCzxid());
		assertThat(stat.getEphemeralOwner()).isEqualTo(lossy.getZookeeperClient().getZooKeeper().getSessionId());

		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(other, "/locks");
		assertThat(rival.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO)).as("nothing blocks others")
			.isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

}
