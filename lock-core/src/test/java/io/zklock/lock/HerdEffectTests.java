package io.zklock.lock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static io.zklock.lock.ZkTestSupport.serverLockWatches;
import static io.zklock.lock.ZkTestSupport.serverWatchCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No herd effect: each exclusive waiter watches only its predecessor, so one release wakes
 * exactly one waiter; and an exclusive holder's release after holding proves itself, so the
 * woken waiter holds without listing (docs/lock-protocol.md, "Handoff without a listing").
 * Counted with instrumented ZooKeeper handles (getChildren calls, watches set, watch events
 * delivered) and with the server's own watch table ({@code wchc}; {@code mntr} counts a
 * persistent watch twice, in its data and child tables).
 */
@Tag("slow")
class HerdEffectTests extends ZkServerTest {

	private static final int WAITERS = 5;

	@Test
	@Timeout(60)
	void shouldWakeExactlyOneExclusiveWaiterPerRelease() throws Exception {
		String path = "herd/exclusive";
		String zkBasePath = "/" + NAMESPACE + basePath(path);
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);

		List<CountingZooKeeper.Counters> counters = new ArrayList<>();
		List<CountDownLatch> granted = new ArrayList<>();
		List<CountDownLatch> mayRelease = new ArrayList<>();
		List<Future<ReleaseResult>> waiters = new ArrayList<>();
		for (int i = 0; i < WAITERS; i++) {
			CountingZooKeeper.Counters count = new CountingZooKeeper.Counters(zkBasePath);
			ExclusiveLockByCurator lock = new ExclusiveLockByCurator(
					this.clients.newClient(NAMESPACE, CountingZooKeeper.factory(count)), ROOT);
			CountDownLatch grant = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			counters.add(count);
			granted.add(grant);
			mayRelease.add(release);
			waiters.add(this.clients.background(() -> {
				LockHandle handle = lock.acquire(path, LockMode.EXCLUSIVE);
				grant.countDown();
				release.await();
				return handle.release();
			}));
			awaitQueued(holderClient, path, i + 2);
		}

		// holder + 5 waiters = 6 contenders: 5 watches, one per waiter, each on its predecessor
		List<String> queue = lockNodes(holderClient, path);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == WAITERS);
		assertThat(serverWatchCount(server)).as("mntr zk_watch_count").isEqualTo(2 * WAITERS);
		List<String> watched = serverLockWatches(server);
		assertThat(new HashSet<>(watched)).as("each node is watched by one session at most").hasSize(WAITERS);
		assertThat(watched).containsExactlyInAnyOrderElementsOf(
				queue.subList(0, WAITERS).stream().map((node) -> zkBasePath + "/" + node).toList());
		for (CountingZooKeeper.Counters count : counters) {
			assertThat(count).satisfies((c) -> {
				assertThat(c.lockNodeCreates).hasValue(1);
				assertThat(c.childrenReads).hasValue(1);
				assertThat(c.persistentWatchesSet).hasValue(1);
				assertThat(c.dataWatchesSet).hasValue(0);
				assertThat(c.watchEvents).hasValue(0);
			});
		}

		holder.release();
		for (int round = 0; round < WAITERS; round++) {
			assertThat(granted.get(round).await(20, TimeUnit.SECONDS)).as("waiter %d granted", round).isTrue();
			int woken = round;
			// the woken waiter got the two events of one release (the data change and the deletion,
			// at one zxid) and held the lock without listing again; nobody behind it moved
			assertThat(counters.get(woken).childrenReads).hasValue(1);
			assertThat(counters.get(woken).watchEvents).hasValue(2);
			for (int later = woken + 1; later < WAITERS; later++) {
				assertThat(counters.get(later).childrenReads).as("waiter %d re-checked", later).hasValue(1);
				assertThat(counters.get(later).watchEvents).as("waiter %d woken", later).hasValue(0);
			}
			int remainingWatches = WAITERS - 1 - round;
			await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == remainingWatches);
			await().atMost(AWAIT).until(() -> serverWatchCount(server) == 2 * remainingWatches);
			mayRelease.get(round).countDown();
		}
		for (Future<ReleaseResult> waiter : waiters) {
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		}

		// final tally, exact: a waiter learns of any event before the reply to its later
		// getChildren, so a herd would have shown up in these numbers by now
		int childrenReads = counters.stream().mapToInt((c) -> c.childrenReads.get()).sum();
		int events = counters.stream().mapToInt((c) -> c.watchEvents.get()).sum();
		int watchesSet = counters.stream().mapToInt((c) -> c.persistentWatchesSet.get()).sum();
		assertThat(childrenReads).as("getChildren: one to queue, none after a wake-up").isEqualTo(WAITERS);
		assertThat(events).as("watch events: two per release, to one waiter").isEqualTo(2 * WAITERS);
		assertThat(watchesSet).isEqualTo(WAITERS);
		assertThat(serverLockWatches(server)).isEmpty();
		assertThat(lockNodes(holderClient, path)).isEmpty();
	}

	@Test
	@Timeout(60)
	void shouldWakeAllReadersBehindAWriterWithOneRelease() throws Exception {
		String path = "herd/readers";
		String zkBasePath = "/" + NAMESPACE + basePath(path);
		CuratorFramework writerClient = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(writerClient, ROOT).acquire(path, LockMode.WRITE);

		int readers = 3;
		List<CountingZooKeeper.Counters> counters = new ArrayList<>();
		CountDownLatch allHolding = new CountDownLatch(readers);
		CountDownLatch done = new CountDownLatch(1);
		List<Future<ReleaseResult>> futures = new ArrayList<>();
		for (int i = 0; i < readers; i++) {
			CountingZooKeeper.Counters count = new CountingZooKeeper.Counters(zkBasePath);
			SharedLockByCurator lock = new SharedLockByCurator(
					this.clients.newClient(NAMESPACE, CountingZooKeeper.factory(count)), ROOT);
			counters.add(count);
			futures.add(this.clients.background(() -> {
				LockHandle handle = lock.acquire(path, LockMode.READ);
				allHolding.countDown();
				done.await();
				return handle.release();
			}));
			awaitQueued(writerClient, path, i + 2);
		}
		// every reader watches the writer, the only node before it that excludes readers
		String writerNode = zkBasePath + "/" + lockNodes(writerClient, path).get(0);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == readers);
		assertThat(serverLockWatches(server)).containsOnly(writerNode);

		writer.release();
		assertThat(allHolding.await(20, TimeUnit.SECONDS)).as("all readers hold the lock together").isTrue();
		assertThat(lockNodes(writerClient, path)).hasSize(readers);
		for (CountingZooKeeper.Counters count : counters) {
			// the writer was the only node blocking each reader: its release is the grant, no re-list
			assertThat(count.childrenReads).hasValue(1);
			assertThat(count.watchEvents).hasValue(2);
		}
		done.countDown();
		for (Future<ReleaseResult> future : futures) {
			assertThat(future.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		}
	}

	@Test
	@Timeout(60)
	void shouldWakeThreadsOfOneProcessOnePerReleaseToo() throws Exception {
		String path = "herd/same-process";
		String zkBasePath = "/" + NAMESPACE + basePath(path);
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		CountingZooKeeper.Counters count = new CountingZooKeeper.Counters(zkBasePath);
		ExclusiveLockByCurator shared = new ExclusiveLockByCurator(
				this.clients.newClient(NAMESPACE, CountingZooKeeper.factory(count)), ROOT);
		List<CountDownLatch> granted = new ArrayList<>();
		List<CountDownLatch> mayRelease = new ArrayList<>();
		List<Future<ReleaseResult>> waiters = new ArrayList<>();
		for (int i = 0; i < WAITERS; i++) {
			CountDownLatch grant = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			granted.add(grant);
			mayRelease.add(release);
			waiters.add(this.clients.background(() -> {
				LockHandle handle = shared.acquire(path, LockMode.EXCLUSIVE);
				grant.countDown();
				release.await();
				return handle.release();
			}));
			awaitQueued(holderClient, path, i + 2);
		}
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == WAITERS);
		assertThat(count.childrenReads).hasValue(WAITERS);
		assertThat(count.watchEvents).hasValue(0);

		holder.release();
		for (int round = 0; round < WAITERS; round++) {
			assertThat(granted.get(round).await(20, TimeUnit.SECONDS)).as("thread %d granted", round).isTrue();
			// one release: its two events in the whole process, to one thread, and no re-read of the queue
			assertThat(count.watchEvents).hasValue(2 * (round + 1));
			assertThat(count.childrenReads).hasValue(WAITERS);
			mayRelease.get(round).countDown();
		}
		for (Future<ReleaseResult> waiter : waiters) {
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		}
		assertThat(serverLockWatches(server)).isEmpty();
	}

}
