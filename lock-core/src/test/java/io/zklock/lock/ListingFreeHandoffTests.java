package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.expireSession;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static io.zklock.lock.ZkTestSupport.serverLockWatches;
import static io.zklock.lock.ZkTestSupport.serverWatchCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Handoff without a listing (docs/lock-protocol.md): an exclusive holder releases with
 * {@code multi(setData, delete)}, and a waiter whose blocker it was holds the lock on the two
 * events at one zxid, with that zxid as its fencing token, although other nodes stood before the
 * blocker when it listed. Every other way a blocker goes (a give-up, an expired session, a write
 * without a delete) makes the waiter list again, so it never passes a holder; and no persistent
 * watch is left on the server.
 */
@Timeout(60)
@Tag("slow")
class ListingFreeHandoffTests extends ZkServerTest {

	private static final Duration SHORT = Duration.ofMillis(300);

	@Test
	void shouldHoldWithoutListingWhenTheBlockerReleasedAfterHolding() throws Exception {
		String path = "handoff/released";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = newLock().acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator middleLock = newLock();
		Future<LockHandle> middle = this.clients.background(() -> middleLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 2);
		CountingZooKeeper.Counters counted = new CountingZooKeeper.Counters("/" + NAMESPACE + basePath(path));
		ExclusiveLockByCurator lastLock = new ExclusiveLockByCurator(
				this.clients.newClient(NAMESPACE, CountingZooKeeper.factory(counted)), ROOT);
		Future<LockHandle> last = this.clients.background(() -> lastLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 3);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 2);

		holder.release();
		LockHandle second = middle.get(20, TimeUnit.SECONDS);
		assertThat(last).isNotDone();
		second.release();
		LockHandle third = last.get(20, TimeUnit.SECONDS);
		Stat parent = observer.checkExists().forPath(basePath(path));
		assertThat(counted.childrenReads).as("listed once, to queue; the release was the grant").hasValue(1);
		assertThat(counted.watchEvents).as("the release's data change and deletion").hasValue(2);
		assertThat(third.fencingToken()).as("the zxid of the release").isEqualTo(parent.getPzxid())
			.isGreaterThan(second.fencingToken());
		third.release();
		await().atMost(AWAIT).until(() -> serverWatchCount(server) == 0);
	}

	@Test
	void shouldListAndWaitWhenTheBlockerGaveUp() throws Exception {
		String path = "handoff/gave-up";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = newLock().acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator middleLock = newLock();
		Future<java.util.Optional<LockHandle>> middle = this.clients
			.background(() -> middleLock.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofSeconds(2)));
		awaitQueued(observer, path, 2);
		CountingZooKeeper.Counters counted = new CountingZooKeeper.Counters("/" + NAMESPACE + basePath(path));
		ExclusiveLockByCurator lastLock = new ExclusiveLockByCurator(
				this.clients.newClient(NAMESPACE, CountingZooKeeper.factory(counted)), ROOT);
		Future<LockHandle> last = this.clients.background(() -> lastLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 3);

		assertThat(middle.get(20, TimeUnit.SECONDS)).as("the middle waiter gave up").isEmpty();
		await().atMost(AWAIT).until(() -> counted.childrenReads.get() == 2);
		awaitQueued(observer, path, 2);
		assertThat(last).as("a give-up is no release: the holder still holds").isNotDone();
		holder.release();
		last.get(20, TimeUnit.SECONDS).release();
		await().atMost(AWAIT).until(() -> serverWatchCount(server) == 0);
	}

	@Test
	void shouldListAndWaitWhenTheBlockersSessionExpired() throws Exception {
		String path = "handoff/expired";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = newLock().acquire(path, LockMode.EXCLUSIVE);
		CuratorFramework middleClient = this.clients.newClient();
		ExclusiveLockByCurator middleLock = new ExclusiveLockByCurator(middleClient, ROOT);
		this.clients.background(() -> middleLock.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofSeconds(30)));
		awaitQueued(observer, path, 2);
		String middleNode = lockNodes(observer, path).get(1);
		ExclusiveLockByCurator lastLock = newLock();
		Future<LockHandle> last = this.clients.background(() -> lastLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 3);

		expireSession(server, middleClient);
		await().atMost(AWAIT).until(() -> !lockNodes(observer, path).contains(middleNode));
		assertThat(last).as("an expiry is no release: the holder still holds").isNotDone();
		awaitQueued(observer, path, 2);
		assertThat(last).isNotDone();
		holder.release();
		last.get(20, TimeUnit.SECONDS).release();
	}

	@Test
	void shouldNotTakeAWriteOfTheBlockerForItsRelease() throws Exception {
		String path = "handoff/written";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = newLock().acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator middleLock = newLock();
		Future<java.util.Optional<LockHandle>> middle = this.clients
			.background(() -> middleLock.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofSeconds(2)));
		awaitQueued(observer, path, 2);
		ExclusiveLockByCurator lastLock = newLock();
		Future<LockHandle> last = this.clients.background(() -> lastLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 3);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 2);

		// a write of the waiting middle node (Curator's revocation request looks so), then its give-up
		observer.setData().forPath(basePath(path) + "/" + lockNodes(observer, path).get(1), new byte[0]);
		assertThat(middle.get(20, TimeUnit.SECONDS)).isEmpty();
		awaitQueued(observer, path, 2);
		assertThat(last).as("a data change and a later deletion are no release").isNotDone();
		holder.release();
		last.get(20, TimeUnit.SECONDS).release();
	}

	@Test
	void shouldLeaveNoPersistentWatchWhenTheWaiterGivesUp() throws Exception {
		String path = "handoff/give-up-watch";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = newLock().acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator waiter = newLock();
		assertThat(waiter.tryAcquire(path, LockMode.EXCLUSIVE, SHORT)).isEmpty();
		await().atMost(AWAIT).until(() -> serverWatchCount(server) == 0);
		assertThat(lockNodes(observer, path)).hasSize(1);
		holder.release();
	}

	@Test
	void shouldShareOneWatchBetweenReadersOfOneClientAndTakeItOffAfterTheGrant() throws Exception {
		String path = "handoff/readers-one-client";
		CuratorFramework observer = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.WRITE);
		SharedLockByCurator readers = new SharedLockByCurator(this.clients.newClient(), ROOT);
		List<Future<LockHandle>> waiting = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			waiting.add(this.clients.background(() -> readers.acquire(path, LockMode.READ)));
		}
		awaitQueued(observer, path, 4);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);
		// one reader gives up: the others keep the watch
		assertThat(readers.tryAcquire(path, LockMode.READ, SHORT)).isEmpty();
		assertThat(serverLockWatches(server)).hasSize(1);

		writer.release();
		List<Long> tokens = new ArrayList<>();
		for (Future<LockHandle> reader : waiting) {
			LockHandle held = reader.get(20, TimeUnit.SECONDS);
			tokens.add(held.fencingToken());
			held.release();
		}
		assertThat(tokens).doesNotHaveDuplicates().allSatisfy((token) -> assertThat(token).isGreaterThan(writer.fencingToken()));
		await().atMost(AWAIT).until(() -> serverWatchCount(server) == 0);
	}

	private ExclusiveLockByCurator newLock() {
		return new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
	}

}
