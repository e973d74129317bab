package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fencing token is the lock node's {@code czxid}: it grows with every grant, whoever
 * gets it, and keeps growing when the container parent is reaped and re-created, although
 * the sequence suffix then starts again at zero.
 */
class FencingTokenTests {

	private TestingServer server;

	private ZkTestSupport.Clients clients;

	@AfterEach
	void close() throws Exception {
		if (this.clients != null) {
			this.clients.close();
		}
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	@Timeout(30)
	void shouldIncreaseTheTokenWithEveryGrantAcrossClients() throws Exception {
		this.server = ZkTestSupport.startServer();
		this.clients = new ZkTestSupport.Clients(this.server);
		String path = "fencing/grants";
		List<ExclusiveLockByCurator> locks = List.of(new ExclusiveLockByCurator(this.clients.newClient(), ROOT),
				new ExclusiveLockByCurator(this.clients.newClient(), ROOT),
				new ExclusiveLockByCurator(this.clients.newClient(), ROOT));
		CuratorFramework observer = this.clients.newClient();
		List<Long> tokens = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			try (LockHandle handle = locks.get(i % 3).acquire(path, LockMode.EXCLUSIVE)) {
				Stat stat = observer.checkExists().forPath(handle.nodePath());
				assertThat(handle.fencingToken()).as("token is the node's czxid").isEqualTo(stat.getCzxid());
				tokens.add(handle.fencingToken());
			}
		}
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		assertThat(tokens.get(0)).isPositive();
	}

	@Test
	@Timeout(60)
	void shouldKeepIncreasingAfterTheContainerParentIsReapedAndRecreated() throws Exception {
		this.server = ZkTestSupport.startFastReapingServer();
		this.clients = new ZkTestSupport.Clients(this.server);
		String path = "fencing/reaped";
		ExclusiveLockByCurator first = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator second = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();

		// b queues while a holds, so the parent cannot be reaped between the two grants
		LockHandle a = first.acquire(path, LockMode.EXCLUSIVE);
		Future<LockHandle> waiting = this.clients.background(() -> second.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 2);
		a.release();
		LockHandle b = waiting.get(20, TimeUnit.SECONDS);
		b.release();
		assertThat(b.nodePath()).endsWith("-lock-0000000001");
		assertThat(b.fencingToken()).isGreaterThan(a.fencingToken());

		await().atMost(AWAIT).until(() -> observer.checkExists().forPath(basePath(path)) == null);

		LockHandle c = first.acquire(path, LockMode.EXCLUSIVE);
		c.release();
		assertThat(c.nodePath()).as("the re-created parent numbers its children from zero again")
			.endsWith("-lock-0000000000");
		assertThat(a.nodePath()).endsWith("-lock-0000000000");
		assertThat(c.fencingToken()).isGreaterThan(b.fencingToken());
		LockHandle d = second.tryAcquire(path, Duration.ofSeconds(5)).orElseThrow();
		d.release();
		assertThat(d.fencingToken()).isGreaterThan(c.fencingToken());
	}

}
