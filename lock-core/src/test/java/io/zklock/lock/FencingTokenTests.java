package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fencing token is the zxid of the grant's evidence (docs/lock-protocol.md): the lock node's
 * {@code czxid} when the lock was free and nothing else changed the queue, else the zxid of the
 * change that let it in. It grows with every grant, whoever gets it, exclusive grants strictly in
 * grant order, readers between the writers before and after them, and keeps growing when the
 * container parent is reaped and re-created, although the sequence suffix then starts again at
 * zero.
 */
@Tag("slow")
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
				assertThat(handle.fencingToken()).as("token of a free lock is the node's czxid")
					.isEqualTo(stat.getCzxid());
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


	@Test
	@Timeout(30)
	void shouldGrantAWaiterATokenAboveEveryWriteOfTheNodeBeforeIt() throws Exception {
		this.server = ZkTestSupport.startServer();
		this.clients = new ZkTestSupport.Clients(this.server);
		String path = "fencing/above-predecessor";
		ExclusiveLockByCurator first = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator second = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();

		LockHandle a = first.acquire(path, LockMode.EXCLUSIVE);
		Future<LockHandle> waiting = this.clients.background(() -> second.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 2);
		// a write of the holder's node after the waiter queued, as a handoff within one client makes:
		// the waiter's czxid is below it, so the czxid cannot be the waiter's token
		Stat written = observer.setData().forPath(a.nodePath(), new byte[0]);
		a.release();
		LockHandle b = waiting.get(20, TimeUnit.SECONDS);
		Stat own = observer.checkExists().forPath(b.nodePath());
		Stat parent = observer.checkExists().forPath(basePath(path));
		b.release();
		assertThat(own.getCzxid()).isLessThan(written.getMzxid());
		assertThat(b.fencingToken()).as("above the write of the node before it").isGreaterThan(written.getMzxid());
		assertThat(b.fencingToken()).as("the zxid of the deletion that let it in").isEqualTo(parent.getPzxid());
	}

	@Test
	@Timeout(60)
	void shouldIncreaseExclusiveTokensStrictlyInGrantOrder() throws Exception {
		this.server = ZkTestSupport.startServer();
		this.clients = new ZkTestSupport.Clients(this.server);
		String path = "fencing/grant-order";
		List<SharedLockByCurator> locks = List.of(new SharedLockByCurator(this.clients.newClient(), ROOT),
				new SharedLockByCurator(this.clients.newClient(), ROOT),
				new SharedLockByCurator(this.clients.newClient(), ROOT));
		List<Long> inGrantOrder = Collections.synchronizedList(new ArrayList<>());
		List<Future<Integer>> workers = new ArrayList<>();
		CountDownLatch start = new CountDownLatch(1);
		for (int i = 0; i < 6; i++) {
			SharedLockByCurator lock = locks.get(i % 3);
			LockMode mode = (i % 2 == 0) ? LockMode.EXCLUSIVE : LockMode.WRITE;
			workers.add(this.clients.background(() -> {
				start.await();
				int granted = 0;
				for (int round = 0; round < 25; round++) {
					// short waits give up in the middle of the queue: a deletion that is no release
					Duration wait = Duration.ofMillis(ThreadLocalRandom.current().nextInt(4) == 0 ? 2 : 5_000);
					Optional<LockHandle> handle = lock.tryAcquire(path, mode, wait);
					if (handle.isPresent()) {
						try (LockHandle held = handle.get()) {
							inGrantOrder.add(held.fencingToken());
							granted++;
						}
					}
				}
				return granted;
			}));
		}
		start.countDown();
		int granted = 0;
		for (Future<Integer> worker : workers) {
			granted += worker.get(50, TimeUnit.SECONDS);
		}
		assertThat(inGrantOrder).hasSize(granted).doesNotHaveDuplicates().isSorted();
	}

	@Test
	@Timeout(30)
	void shouldGiveReadersDistinctTokensBetweenTheWritersBeforeAndAfterThem() throws Exception {
		this.server = ZkTestSupport.startServer();
		this.clients = new ZkTestSupport.Clients(this.server);
		String path = "fencing/readers";
		CuratorFramework observer = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.WRITE);
		List<Future<LockHandle>> readers = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			SharedLockByCurator lock = new SharedLockByCurator(this.clients.newClient(), ROOT);
			readers.add(this.clients.background(() -> lock.acquire(path, LockMode.READ)));
		}
		awaitQueued(observer, path, 4);
		SharedLockByCurator nextWriterLock = new SharedLockByCurator(this.clients.newClient(), ROOT);
		Future<LockHandle> nextWriter = this.clients.background(() -> nextWriterLock.acquire(path, LockMode.WRITE));
		awaitQueued(observer, path, 5);
		writer.release();
		List<LockHandle> held = new ArrayList<>();
		for (Future<LockHandle> reader : readers) {
			held.add(reader.get(20, TimeUnit.SECONDS));
		}
		List<Long> readerTokens = held.stream().map(LockHandle::fencingToken).toList();
		assertThat(nextWriter).isNotDone();
		held.forEach(LockHandle::release);
		LockHandle next = nextWriter.get(20, TimeUnit.SECONDS);
		next.release();
		assertThat(readerTokens).doesNotHaveDuplicates()
			.allSatisfy((token) -> assertThat(token).isGreaterThan(writer.fencingToken())
				.isLessThan(next.fencingToken()));
	}

}
