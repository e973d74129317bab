package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitLockNodes;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The exclusive lock against a real ZooKeeper server: mutual exclusion across clients and
 * threads, FIFO order of waiters, and the handle-based calls.
 */
@Tag("slow")
class ExclusiveLockTests extends ZkServerTest {

	@Test
	@Timeout(90)
	void shouldAdmitOneHolderAtATimeAcrossClientsAndThreads() throws Exception {
		String path = "mutex/counter";
		int clientCount = 3;
		int threadsPerClient = 2;
		int rounds = 50;
		SharedCounter shared = new SharedCounter();
		List<Long> tokensInGrantOrder = Collections.synchronizedList(new ArrayList<>());
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Void>> workers = new ArrayList<>();
		for (int c = 0; c < clientCount; c++) {
			ExclusiveLockByCurator lock = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
			for (int t = 0; t < threadsPerClient; t++) {
				workers.add(this.clients.background(() -> {
					start.await();
					for (int r = 0; r < rounds; r++) {
						try (LockHandle handle = lock.acquire(path, LockMode.EXCLUSIVE)) {
							tokensInGrantOrder.add(handle.fencingToken());
							shared.incrementWithoutAtomicity();
						}
					}
					return null;
				}));
			}
		}
		start.countDown();
		for (Future<Void> worker : workers) {
			worker.get(80, TimeUnit.SECONDS);
		}
		int total = clientCount * threadsPerClient * rounds;
		assertThat(shared.overlaps).as("times two holders were inside at once").hasValue(0);
		assertThat(shared.count).as("no increment lost").isEqualTo(total);
		assertThat(tokensInGrantOrder).hasSize(total).isSorted().doesNotHaveDuplicates();
		assertThat(lockNodes(this.clients.newClient(), path)).isEmpty();
	}

	@Test
	@Timeout(60)
	void shouldGrantWaitersOfSeparateClientsInTheOrderTheyQueued() throws Exception {
		String path = "fifo/clients";
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(observer, ROOT).acquire(path, LockMode.EXCLUSIVE);
		List<Integer> grantOrder = Collections.synchronizedList(new ArrayList<>());
		List<Future<Void>> waiters = new ArrayList<>();
		int waiterCount = 5;
		for (int i = 0; i < waiterCount; i++) {
			int id = i;
			ExclusiveLockByCurator lock = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
			waiters.add(this.clients.background(() -> {
				try (LockHandle handle = lock.acquire(path, LockMode.EXCLUSIVE)) {
					grantOrder.add(id);
				}
				return null;
			}));
			// the next waiter starts only once this one's lock node is in the queue
			awaitQueued(observer, path, i + 2);
		}
		assertThat(grantOrder).isEmpty();
		assertThat(holder.release()).isEqualTo(ReleaseResult.RELEASED);
		for (Future<Void> waiter : waiters) {
			waiter.get(30, TimeUnit.SECONDS);
		}
		assertThat(grantOrder).containsExactlyElementsOf(IntStream.range(0, waiterCount).boxed().toList());
	}

	@Test
	@Timeout(60)
	void shouldGrantWaitingThreadsOfOneProcessInTheOrderTheyQueued() throws Exception {
		String path = "fifo/threads";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle holder = lock.acquire(path, LockMode.EXCLUSIVE);
		List<Integer> grantOrder = Collections.synchronizedList(new ArrayList<>());
		List<Future<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			int id = i;
			waiters.add(this.clients.background(() -> {
				lock.acquireDistributedLock(path);
				try {
					grantOrder.add(id);
				}
				finally {
					lock.releaseDistributedLock(path);
				}
				return null;
			}));
			awaitQueued(client, path, i + 2);
		}
		holder.release();
		for (Future<Void> waiter : waiters) {
			waiter.get(30, TimeUnit.SECONDS);
		}
		assertThat(grantOrder).containsExactly(0, 1, 2, 3);
	}

	@Test
	@Timeout(30)
	void shouldReportHandleDetailsWhileHeld() throws Exception {
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle handle = lock.tryAcquire("/orders/42", Duration.ofSeconds(5)).orElseThrow();
		assertThat(handle.lockPath()).isEqualTo("orders/42");
		assertThat(handle.mode()).isEqualTo(LockMode.EXCLUSIVE);
		assertThat(handle.nodePath()).startsWith(ROOT + "/orders/42/_c_").matches(".*-lock-\\d{10}");
		assertThat(handle.isHeld()).isTrue();
		assertThat(handle.acquiredAt()).isNotNull();
		assertThat(handle.fencingToken()).isPositive();
		assertThat(handle.toString()).contains("orders/42", String.valueOf(handle.fencingToken()));
		assertThat(handle.owner()).isEqualTo(HoldOwner.CALL);
		assertThat(lock.isHeldByCurrentThread("orders/42")).as("a call-owned hold belongs to no thread").isFalse();
		assertThat(lock.heldLocks()).singleElement().satisfies((held) -> {
			assertThat(held.lockPath()).isEqualTo("orders/42");
			assertThat(held.owner()).isEqualTo(HoldOwner.CALL);
			assertThat(held.state()).isEqualTo(LockState.HELD);
		});
		assertThat(client.checkExists().forPath(handle.nodePath())).isNotNull();
		assertThat(handle.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(handle.isHeld()).isFalse();
		assertThat(lock.isHeldByCurrentThread("orders/42")).isFalse();
		assertThat(client.checkExists().forPath(handle.nodePath())).isNull();
	}

	@Test
	@Timeout(30)
	void shouldGiveTheLockToTheNextClientOnceReleased() {
		String path = "handover";
		ExclusiveLockByCurator first = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator second = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		LockHandle held = first.acquire(path, LockMode.EXCLUSIVE);
		assertThat(second.tryAcquire(path, Duration.ZERO)).isEmpty();
		assertThat(second.tryAcquire(path, Duration.ofMillis(200))).isEmpty();
		held.release();
		LockHandle next = second.tryAcquire(path, Duration.ZERO).orElseThrow();
		assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
		next.release();
	}

	@Test
	@Timeout(30)
	void shouldWaitForAReleaseWithinTheGivenWait() throws Exception {
		String path = "bounded-wait";
		ExclusiveLockByCurator first = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework secondClient = this.clients.newClient();
		ExclusiveLockByCurator second = new ExclusiveLockByCurator(secondClient, ROOT);
		LockHandle held = first.acquire(path, LockMode.EXCLUSIVE);
		Future<Boolean> waiter = this.clients.background(() -> {
			try (LockHandle handle = second.tryAcquire(path, Duration.ofSeconds(20)).orElseThrow()) {
				return handle.isHeld();
			}
		});
		awaitQueued(secondClient, path, 2);
		held.release();
		assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	@Timeout(30)
	void shouldRunTheCallbackUnderTheLockAndReleaseAfterwards() throws Exception {
		String path = "execute";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		String result = lock.executeLocked(path, LockMode.EXCLUSIVE, Duration.ofSeconds(5), (handle) -> {
			assertThat(handle.isHeld()).isTrue();
			assertThat(lockNodes(client, path)).hasSize(1);
			assertThat(other.tryAcquire(path, Duration.ZERO)).isEmpty();
			return "done";
		});
		assertThat(result).isEqualTo("done");
		assertThat(lockNodes(client, path)).isEmpty();

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> lock.executeLocked(path, LockMode.EXCLUSIVE, Duration.ofSeconds(5), (handle) -> {
				throw new IllegalStateException("boom");
			}))
			.withMessage("boom");
		assertThat(lockNodes(client, path)).isEmpty();
		assertThat(lock.isHeldByCurrentThread(path)).isFalse();
	}

	@Test
	@Timeout(30)
	void shouldFailExecuteLockedNamingPathAndWaitWhenTheLockIsBusy() {
		String path = "execute-busy";
		CuratorFramework client = this.clients.newClient();
		LockHandle held = new ExclusiveLockByCurator(client, ROOT).acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		AtomicInteger calls = new AtomicInteger();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> other.executeLocked(path, LockMode.EXCLUSIVE, Duration.ofMillis(100),
					(handle) -> calls.incrementAndGet()))
			.withMessageContaining("'" + path + "'")
			.withMessageContaining("100ms")
			.satisfies((ex) -> assertThat(ex.getLockPath()).isEqualTo(path));
		assertThat(calls).hasValue(0);
		awaitLockNodes(client, path, nodeName(held));
		held.release();
	}

	private static String nodeName(LockHandle handle) {
		return handle.nodePath().substring(handle.nodePath().lastIndexOf('/') + 1);
	}

	/** A counter whose increment is a read and a write, so overlapping holders lose updates. */
	private static final class SharedCounter {

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger overlaps = new AtomicInteger();

		private volatile int count;

		void incrementWithoutAtomicity() throws InterruptedException {
			if (this.inside.incrementAndGet() != 1) {
				this.overlaps.incrementAndGet();
			}
			int read = this.count;
			Thread.sleep(1); // simulated work inside the critical section
			this.count = read + 1;
			this.inside.decrementAndGet();
		}

	}

}
