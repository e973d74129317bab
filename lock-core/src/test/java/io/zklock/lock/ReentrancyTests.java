package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Thread-owned holds are reentrant per thread and lock path, counted locally; call-owned holds
 * never are, even on the same thread; thread-bound release; release of a handle from any
 * thread, once.
 */
@Tag("slow")
class ReentrancyTests extends ZkServerTest {

	@Test
	@Timeout(30)
	void shouldReenterWithoutNewNodeOrZooKeeperCall() throws Exception {
		String path = "reentrant/nested";
		CountingZooKeeper.Counters counters = new CountingZooKeeper.Counters("/" + NAMESPACE + basePath(path));
		CuratorFramework client = this.clients.newClient(NAMESPACE, CountingZooKeeper.factory(counters));
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);

		LockHandle outer = lock.acquire(threadOwned(path, LockMode.EXCLUSIVE));
		List<String> nodes = lockNodes(client, path);
		assertThat(nodes).hasSize(1);
		String countsAfterFirst = counters.toString();

		LockHandle middle = lock.acquire(threadOwned(path, LockMode.EXCLUSIVE));
		LockHandle inner = lock.tryAcquire(threadOwned("/" + path, LockMode.EXCLUSIVE).waitAtMost(Duration.ZERO))
			.orElseThrow();
		assertThat(counters.toString()).as("reentrant acquires make no ZooKeeper call").isEqualTo(countsAfterFirst);
		assertThat(lockNodes(client, path)).isEqualTo(nodes);
		assertThat(List.of(middle, inner)).allSatisfy((handle) -> {
			assertThat(handle.fencingToken()).isEqualTo(outer.fencingToken());
			assertThat(handle.nodePath()).isEqualTo(outer.nodePath());
			assertThat(handle.lockPath()).isEqualTo(path);
		});

		assertThat(inner.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(inner.isHeld()).isFalse();
		assertThat(outer.isHeld()).isTrue();
		assertThat(middle.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(lockNodes(client, path)).isEqualTo(nodes);
		assertThat(lock.isHeldByCurrentThread(path)).isTrue();
		assertThat(outer.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
		assertThat(lock.isHeldByCurrentThread(path)).isFalse();
	}

	@Test
	@Timeout(30)
	void shouldShareReentrancyBetweenTheExclusiveAndSharedBeansOfOneEngine() {
		String path = "reentrant/shared-engine";
		CuratorFramework client = this.clients.newClient();
		LockEngine engine = new LockEngine(client, ROOT);
		ExclusiveLockByCurator exclusive = new ExclusiveLockByCurator(engine);
		SharedLockByCurator shared = new SharedLockByCurator(engine);
		LockHandle outer = exclusive.acquire(threadOwned(path, LockMode.EXCLUSIVE));
		LockHandle inner = shared.tryAcquire(threadOwned(path, LockMode.READ).waitAtMost(Duration.ZERO)).orElseThrow();
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		assertThat(shared.isHeldByCurrentThread(path)).isTrue();
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(inner.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(outer.release()).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	@Timeout(30)
	void shouldMakeAnotherThreadOfTheSameProcessWait() throws Exception {
		String path = "reentrant/other-thread";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle held = lock.acquire(path, LockMode.EXCLUSIVE);

		Future<Optional<LockHandle>> timedOut = this.clients
			.background(() -> lock.tryAcquire(path, Duration.ofMillis(200)));
		assertThat(timedOut.get(10, TimeUnit.SECONDS)).isEmpty();

		Future<Long> waiter = this.clients.background(() -> {
			try (LockHandle handle = lock.acquire(threadOwned(path, LockMode.EXCLUSIVE))) {
				assertThat(lock.isHeldByCurrentThread(path)).isTrue();
				return handle.fencingToken();
			}
		});
		awaitQueued(client, path, 2);
		assertThat(waiter).isNotDone();
		assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(waiter.get(20, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
	}

	@Test
	@Timeout(30)
	void shouldNestThreadBoundAcquiresAndReleases() {
		String path = "reentrant/thread-bound";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		lock.acquireDistributedLock(path);
		lock.acquireDistributedLock(path);
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldRefuseAThreadBoundReleaseWithoutAHold() throws Exception {
		String path = "reentrant/not-held";
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		assertThatExceptionOfType(IllegalMonitorStateException.class)
			.isThrownBy(() -> lock.releaseDistributedLock(path))
			.withMessageContaining("'" + path + "'");

		// a thread-bound lock belongs to the thread that took it
		lock.acquireDistributedLock(path);
		Future<?> otherThread = this.clients.background(() -> lock.releaseDistributedLock(path));
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> otherThread.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalMonitorStateException.class)
			.withMessageContaining("'" + path + "'");
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.RELEASED);
		assertThatExceptionOfType(IllegalMonitorStateException.class)
			.isThrownBy(() -> lock.releaseDistributedLock(path));
	}

	@Test
	@Timeout(30)
	void shouldReleaseAHandleFromAnotherThread() throws Exception {
		String path = "reentrant/any-thread";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		ExclusiveLockByCurator otherProcess = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		LockHandle handle = lock.acquire(path, LockMode.EXCLUSIVE);

		assertThat(this.clients.background(handle::release).get(10, TimeUnit.SECONDS))
			.isEqualTo(ReleaseResult.RELEASED);
		assertThat(handle.isHeld()).isFalse();
		assertThat(lock.isHeldByCurrentThread(path)).isFalse();
		assertThat(lockNodes(client, path)).isEmpty();
		otherProcess.tryAcquire(path, Duration.ZERO).orElseThrow().release();
		// the acquiring thread takes the lock anew, with a new node
		LockHandle again = lock.tryAcquire(path, Duration.ZERO).orElseThrow();
		assertThat(again.fencingToken()).isGreaterThan(handle.fencingToken());
		again.release();
	}

	@Test
	@Timeout(60)
	void shouldRefuseToReenterALockWhoseSessionExpired() throws Exception {
		String path = "reentrant/lost";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		LockHandle lost = lock.acquire(threadOwned(path, LockMode.EXCLUSIVE));
		ZkTestSupport.expireSession(server, client);
		await().atMost(AWAIT).until(() -> lost.state() == LockState.LOST);
		LockHandle rivalHandle = rival.tryAcquire(path, Duration.ofSeconds(20)).orElseThrow();

		// the thread still has the hold locally, but must not get the lock "again" from it
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> lock.tryAcquire(threadOwned(path, LockMode.EXCLUSIVE).waitAtMost(Duration.ofSeconds(1))))
			.withMessageContaining("'" + path + "'")
			.withMessageContaining("LOST");
		AtomicBoolean ran = new AtomicBoolean();
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(
				() -> lock.executeLocked(path, LockMode.EXCLUSIVE, Duration.ofSeconds(1), (h) -> ran.getAndSet(true)));
		assertThat(ran).as("callback ran while the rival holds the lock").isFalse();

		assertThat(lost.release()).isEqualTo(ReleaseResult.LOST);
		assertThat(rivalHandle.release()).isEqualTo(ReleaseResult.RELEASED);
		LockHandle again = lock.tryAcquire(path, Duration.ofSeconds(20)).orElseThrow();
		assertThat(again.fencingToken()).isGreaterThan(rivalHandle.fencingToken());
		again.release();
	}

	@Test
	@Timeout(30)
	void shouldNeverJoinACallOwnedHoldEvenOnTheSameThread() throws Exception {
		String path = "reentrant/call-owned";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle first = lock.acquire(path, LockMode.EXCLUSIVE);

		assertThat(lock.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ofMillis(300)))
			.as("a second call-owned acquire on the same thread queues behind the first").isEmpty();
		assertThat(lock.tryAcquire(path, LockMode.READ, Duration.ZERO)).isEmpty();
		assertThat(lock.isHeldByCurrentThread(path)).as("a call-owned hold belongs to no thread").isFalse();
		assertThat(lockNodes(client, path)).hasSize(1);

		Future<LockHandle> second = this.clients.background(() -> lock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(client, path, 2);
		assertThat(first.release()).isEqualTo(ReleaseResult.RELEASED);
		LockHandle next = second.get(20, TimeUnit.SECONDS);
		assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
		assertThat(next.owner()).isEqualTo(HoldOwner.CALL);
		next.release();
	}

	@Test
	@Timeout(30)
	void shouldRefuseACallOwnedAcquireOfAPathTheThreadHoldsThreadOwned() {
		String path = "reentrant/would-wait-for-itself";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		lock.acquireDistributedLock(path);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> lock.tryAcquire(path, LockMode.READ, Duration.ofSeconds(5)))
			.withMessageContaining("'" + path + "'")
			.withMessageContaining("wait for it forever");
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	private static LockRequest threadOwned(String path, LockMode mode) {
		return LockRequest.of(path, mode).ownedBy(HoldOwner.THREAD);
	}

	@Test
	@Timeout(30)
	void shouldReportAlreadyReleasedForASecondRelease() {
		String path = "reentrant/twice";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle outer = lock.acquire(threadOwned(path, LockMode.EXCLUSIVE));
		LockHandle inner = lock.acquire(threadOwned(path, LockMode.EXCLUSIVE));
		assertThat(inner.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(inner.release()).as("a second release must not count the outer hold down")
			.isEqualTo(ReleaseResult.ALREADY_RELEASED);
		assertThat(outer.isHeld()).isTrue();
		assertThat(lockNodes(client, path)).hasSize(1);
		assertThat(outer.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(outer.release()).isEqualTo(ReleaseResult.ALREADY_RELEASED);
		outer.close();
		assertThat(lockNodes(client, path)).isEmpty();
	}

}
