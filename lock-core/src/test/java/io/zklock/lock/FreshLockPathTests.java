package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.children;
import static io.zklock.lock.ZkTestSupport.serverPacketsReceived;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The first acquire of a lock path that does not exist yet, as with a lock per order id: the
 * create that finds the lock path missing is followed by the lock path's CONTAINER create, the
 * lock node's create and the listing, sent together; deeper missing parents are all created; a
 * zero wait is not refused because the lock path had to be created first; clients racing to
 * create the same new lock path still exclude each other.
 */
@Timeout(60)
class FreshLockPathTests extends ZkServerTest {

	@Test
	void shouldLockANewKeyUnderAnExistingParentInSixRequests() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		locks.acquire("orders/warm-up", LockMode.EXCLUSIVE).release();
		int keys = 20;

		long before = serverPacketsReceived(server);
		for (int i = 0; i < keys; i++) {
			assertThat(locks.acquire("orders/" + i, LockMode.EXCLUSIVE).release()).isEqualTo(ReleaseResult.RELEASED);
		}
		long requests = serverPacketsReceived(server) - before - 1;

		// per key: create (NoNode) and the pipelined listing (NoNode); then the lock path's
		// container, the create and the listing, pipelined; the release's delete. Curator's
		// creatingParentContainersIfNeeded would add an exists per level and a protected-mode
		// listing of the new parent. One more request allowed for a ping.
		assertThat(requests).as("requests for %d new keys", keys).isBetween(6L * keys, 6L * keys + 1);
	}

	@Test
	void shouldCreateEveryMissingParentAsAContainer() throws Exception {
		// a Stat shows a CONTAINER's owner as 0, as for a persistent node: a container is the
		// node the server deletes once it has had a child and is empty again
		try (TestingServer reaping = ZkTestSupport.startFastReapingServer();
				ZkTestSupport.Clients own = new ZkTestSupport.Clients(reaping)) {
			CuratorFramework client = own.newClient();
			client.create().forPath("/kept");
			LockHandle lock = new ExclusiveLockByCurator(client, "/kept").acquire("a/b/c", LockMode.EXCLUSIVE);
			for (String parent : List.of("/kept/a", "/kept/a/b", "/kept/a/b/c")) {
				assertThat(client.checkExists().forPath(parent)).as(parent).isNotNull();
			}
			assertThat(children(client, "/kept/a/b/c")).hasSize(1);
			assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);

			await().atMost(AWAIT).until(() -> client.checkExists().forPath("/kept/a") == null);
			assertThat(client.checkExists().forPath("/kept")).as("a persistent root is left alone").isNotNull();
		}
	}

	@Test
	void shouldLockInANamespaceThatDoesNotExistYet() throws Exception {
		CuratorFramework client = this.clients.newClient("fresh-namespace", null);
		LockHandle lock = new ExclusiveLockByCurator(client, "/deep/root").acquire("a/b", LockMode.EXCLUSIVE);
		assertThat(children(client, "/deep/root/a/b")).hasSize(1);
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void shouldGrantAFreeNewKeyToAZeroWait() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		locks.acquire("zero/warm-up", LockMode.EXCLUSIVE).release();

		for (String path : List.of("zero/new-leaf", "zero-deep/x/y/new-leaf")) {
			LockHandle lock = locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO).orElse(null);
			assertThat(lock).as("zero wait on the free new lock path '%s'", path).isNotNull();
			assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
		}
	}

	@Test
	void shouldLockANewKeyWhoseLockPathAnotherClientJustCreated() throws Exception {
		CuratorFramework other = this.clients.newClient();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		locks.acquire("race/warm-up", LockMode.EXCLUSIVE).release();
		other.create().withMode(CreateMode.CONTAINER).forPath(ROOT + "/race/made-elsewhere");

		LockHandle lock = locks.tryAcquire("race/made-elsewhere", LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow();
		assertThat(lock.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void shouldExcludeClientsRacingToCreateTheSameNewLockPath() throws Exception {
		List<ExclusiveLockByCurator> sessions = List.of(new ExclusiveLockByCurator(this.clients.newClient(), ROOT),
				new ExclusiveLockByCurator(this.clients.newClient(), ROOT),
				new ExclusiveLockByCurator(this.clients.newClient(), ROOT));
		sessions.forEach((locks) -> locks.acquire("race/warm-up", LockMode.EXCLUSIVE).release());
		int contenders = 6;
		for (int key = 0; key < 10; key++) {
			String path = "race/key-" + key;
			CountDownLatch start = new CountDownLatch(1);
			AtomicInteger inside = new AtomicInteger();
			AtomicInteger mostInside = new AtomicInteger();
			List<Future<?>> runs = new ArrayList<>();
			for (int i = 0; i < contenders; i++) {
				ExclusiveLockByCurator locks = sessions.get(i % sessions.size());
				runs.add(this.clients.background(() -> {
					start.await();
					try (LockHandle lock = locks.acquire(path, LockMode.EXCLUSIVE)) {
						mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
						Thread.sleep(2); // simulated work inside the lock
						inside.decrementAndGet();
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> run : runs) {
				run.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
			}
			assertThat(mostInside).as("holders at once on the new lock path '%s'", path).hasValue(1);
		}
	}

}
