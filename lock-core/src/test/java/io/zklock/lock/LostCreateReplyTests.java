package io.zklock.lock;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lock-node create whose reply is lost: the server made the node, the client heard only
 * a connection loss. Simulated at the client boundary, on a real server: the first
 * sequential create under the lock path reaches the server and then reports
 * {@code CONNECTIONLOSS} (whether sent synchronously or asynchronously). Curator's protected mode finds the node by its {@code _c_<uuid>}
 * prefix and adopts it, so no orphan node blocks the queue, and the fencing token is still
 * the node's {@code czxid}.
 */
@Timeout(60)
class LostCreateReplyTests {

	private TestingServer server;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() throws Exception {
		this.server = new TestingServer(true);
	}

	@AfterEach
	void stop() throws Exception {
		this.clients.forEach(CuratorFramework::close);
		this.server.close();
	}

	@Test
	void shouldLeaveNoOrphanNodeWhenACreateReplyIsLost() throws Exception {
		AtomicBoolean dropNextReply = new AtomicBoolean(true);
		AtomicInteger repliesDropped = new AtomicInteger();
		CuratorFramework lossy = client(dropFirstReply(dropNextReply, repliesDropped));
		CuratorFramework other = client(null);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(lossy, "/locks");

		LockHandle lock = locks.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(10)).orElseThrow();
		assertThat(repliesDropped).as("the fault was injected").hasValue(1);
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

	private CuratorFramework client(ZookeeperFactory factory) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(this.server.getConnectString())
			.namespace("zklock")
			.retryPolicy(new RetryNTimes(3, 50));
		if (factory != null) {
			builder.zookeeperFactory(factory);
		}
		CuratorFramework client = builder.build();
		client.start();
		client.blockUntilConnected();
		this.clients.add(client);
		return client;
	}

	private static ZookeeperFactory dropFirstReply(AtomicBoolean drop, AtomicInteger dropped) {
		return new ZookeeperFactory() {

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly) throws Exception {
				return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, new ZKClientConfig());
			}

			@Override
			public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
					boolean canBeReadOnly, ZKClientConfig config) throws IOException {
				return new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

					@Override
					public void create(String path, byte[] data, List<ACL> acl, CreateMode mode,
							AsyncCallback.Create2Callback cb, Object ctx, long ttl) {
						if (mode.isSequential() && path.startsWith("/zklock/locks/jobs/") && drop.get()) {
							super.create(path, data, acl, mode, (rc, createdPath, context, name, stat) -> {
								if (rc == KeeperException.Code.OK.intValue() && drop.getAndSet(false)) {
									dropped.incrementAndGet();
									cb.processResult(KeeperException.Code.CONNECTIONLOSS.intValue(), createdPath,
											context, null, null);
								}
								else {
									cb.processResult(rc, createdPath, context, name, stat);
								}
							}, ctx, ttl);
							return;
						}
						super.create(path, data, acl, mode, cb, ctx, ttl);
					}

					@Override
					public String create(String path, byte[] data, List<ACL> acl, CreateMode mode, Stat stat,
							long ttl) throws KeeperException, InterruptedException {
						String created = super.create(path, data, acl, mode, stat, ttl);
						if (mode.isSequential() && path.startsWith("/zklock/locks/jobs/") && drop.getAndSet(false)) {
							dropped.incrementAndGet();
							throw new KeeperException.ConnectionLossException();
						}
						return created;
					}

				};
			}

		};
	}

}
