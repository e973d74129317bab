package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.zklock.fixtures.Sessions;
import io.zklock.fixtures.ZooKeeperHandles;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock node of an expired session must never count as held, even when a lagging
 * follower still lists it (CURATOR-498/604). Runs on a three-server {@link TestingCluster};
 * the lagging follower is simulated at the client boundary: after the waiter's session
 * expired, its next {@code getChildren} answers with the listing from before, in which the
 * waiter's dead node stands first in line.
 */
@Timeout(120)
@Tag("slow")
class StaleListingTests {

	private TestingCluster cluster;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	@BeforeEach
	void startCluster() throws Exception {
		this.cluster = new TestingCluster(3);
		this.cluster.start();
	}

	@AfterEach
	void stop() throws Exception {
		this.clients.forEach(CuratorFramework::close);
		this.cluster.close();
	}

	@Test
	void shouldNotTakeADeadNodeListedByALaggingFollowerForTheLock() throws Exception {
		ExclusiveLockByCurator holder = new ExclusiveLockByCurator(client(null, null), "/locks");
		AtomicReference<List<String>> staleListing = new AtomicReference<>();
		AtomicLong staleSession = new AtomicLong();
		CuratorFramework waiterClient = client(staleListing, staleSession);
		ExclusiveLockByCurator waiter = new ExclusiveLockByCurator(waiterClient, "/locks");
		CuratorFramework observer = client(null, null);

		LockHandle held = holder.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		CompletableFuture<LockHandle> waiting = CompletableFuture
			.supplyAsync(() -> waiter.tryAcquire("jobs", LockMode.EXCLUSIVE, Duration.ofSeconds(60)).orElseThrow());
		await().atMost(Duration.ofSeconds(20)).until(() -> observer.getChildren().forPath("/locks/jobs").size() == 2);
		String deadNode = observer.getChildren()
			.forPath("/locks/jobs")
			.stream()
			.filter((name) -> !held.nodePath().endsWith(name))
			.findFirst()
			.orElseThrow();

		// the follower "still lists" only the waiter's dead node, as if the holder had left too:
		// answered to the first listing made under a new session
		long oldSession = waiterClient.getZookeeperClient().getZooKeeper().getSessionId();
		staleSession.set(oldSession);
		staleListing.set(List.of(deadNode));
		Sessions.expire(waiterClient, this.cluster.getConnectString());
		await().atMost(Duration.ofSeconds(30))
			.until(() -> waiterClient.getZookeeperClient().isConnected()
					&& waiterClient.getZookeeperClient().getZooKeeper().getSessionId() != oldSession);
		await().atMost(Duration.ofSeconds(20)).until(() -> staleListing.get() == null);

		// the holder still holds: the waiter must still be waiting, queued again with a live node
		await().atMost(Duration.ofSeconds(20)).until(() -> observer.getChildren().forPath("/locks/jobs").size() == 2);
		assertThat(waiting).isNotDone();
		assertThat(held.isHeld()).isTrue();

		held.release();
		LockHandle granted = waiting.get(30, TimeUnit.SECONDS);
		Stat stat = observer.checkExists().forPath(granted.nodePath());
		assertThat(stat).isNotNull();
		assertThat(stat.getEphemeralOwner()).isEqualTo(waiterClient.getZookeeperClient().getZooKeeper().getSessionId());
		assertThat(granted.nodePath()).doesNotEndWith(deadNode);
		assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
		granted.release();
	}

	private CuratorFramework client(AtomicReference<List<String>> staleListing,
			AtomicLong staleSession) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(this.cluster.getConnectString())
			.namespace("zklock")
			.sessionTimeoutMs(4000)
			.connectionTimeoutMs(2000)
			.retryPolicy(new RetryNTimes(10, 200));
		if (staleListing != null) {
			builder.zookeeperFactory(staleFactory(staleListing, staleSession));
		}
		CuratorFramework client = builder.build();
		client.start();
		client.blockUntilConnected();
		this.clients.add(client);
		return client;
	}

	/**
	 * Handles whose first listing of {@code /zklock/locks/jobs} under a session other than
	 * {@code oldSession}, once armed, answers {@code stale}.
	 */
	private static ZookeeperFactory staleFactory(AtomicReference<List<String>> stale,
			AtomicLong oldSession) {
		return ZooKeeperHandles.factory((connectString, sessionTimeout, watcher, canBeReadOnly,
				config) -> new ZooKeeperAdmin(connectString, sessionTimeout, watcher, canBeReadOnly, config) {

			@Override
			public List<String> getChildren(String path, Watcher childWatcher, Stat stat)
					throws KeeperException, InterruptedException {
				List<String> answer = staleAnswer(path);
				return (answer != null) ? answer : super.getChildren(path, childWatcher, stat);
			}

			@Override
			public void getChildren(String path, Watcher childWatcher, AsyncCallback.Children2Callback cb,
					Object ctx) {
				List<String> answer = staleAnswer(path);
				super.getChildren(path, childWatcher, (rc, replyPath, context, children, stat) -> cb
					.processResult(rc, replyPath, context, (answer != null) ? answer : children, stat), ctx);
			}

			private List<String> staleAnswer(String path) {
				boolean newSession = oldSession.get() != 0 && getSessionId() != oldSession.get();
				return ("/zklock/locks/jobs".equals(path) && newSession) ? stale.getAndSet(null) : null;
			}

		});
	}

}
