package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the other shapes of a zklock lock: {@link ILockByCurator#asLock(String)},
 * {@link ILockByCurator#asInterProcessLock(String, LockMode)} inside Curator's
 * {@link InterProcessMultiLock}, and {@link ILockByCurator#tryAcquireAll}.
 */
@Timeout(60)
@Tag("slow")
class LockViewsTests extends ZkServerTest {

	@Test
	void shouldReenterAsLockAndExcludeOtherProcesses() throws Exception {
		ILockByCurator first = locks();
		ILockByCurator second = locks();
		Lock lock = first.asLock("orders");
		Lock rival = second.asLock("orders");
		lock.lock();
		assertThat(lock.tryLock()).isTrue();
		assertThat(CompletableFuture.supplyAsync(rival::tryLock).get(10, TimeUnit.SECONDS)).isFalse();
		lock.unlock();
		assertThat(first.isHeldByCurrentThread("orders")).isTrue();
		lock.unlock();
		assertThat(first.isHeldByCurrentThread("orders")).isFalse();
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'orders'");
		assertThat(CompletableFuture.supplyAsync(() -> {
			try {
				boolean got = rival.tryLock(5, TimeUnit.SECONDS);
				rival.unlock();
				return got;
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}).get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void shouldRefuseConditionsOfAsLockWithAReason() throws Exception {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> locks().asLock("orders").newCondition())
			.withMessageContaining("'orders'")
			.withMessageContaining("barrier");
	}

	@Test
	void shouldAnswerAnInterruptInLockInterruptiblyButNotInLock() throws Exception {
		ILockByCurator holderLocks = locks();
		ILockByCurator waiterLocks = locks();
		LockHandle held = holderLocks.acquire("orders", LockMode.EXCLUSIVE);
		Lock waiterLock = waiterLocks.asLock("orders");
		CountDownLatch waiting = new CountDownLatch(1);
		CompletableFuture<Boolean> interruptible = new CompletableFuture<>();
		Thread interruptibleThread = new Thread(() -> {
			waiting.countDown();
			try {
				waiterLock.lockInterruptibly();
				interruptible.complete(false);
			}
			catch (InterruptedException ex) {
				interruptible.complete(true);
			}
		});
		interruptibleThread.start();
		waiting.await();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> children("/locks/orders").size() == 2);
		interruptibleThread.interrupt();
		assertThat(interruptible.get(10, TimeUnit.SECONDS)).isTrue();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> children("/locks/orders").size() == 1);

		CompletableFuture<Boolean> uninterruptible = new CompletableFuture<>();
		Thread lockThread = new Thread(() -> {
			waiterLock.lock();
			uninterruptible.complete(Thread.currentThread().isInterrupted());
			waiterLock.unlock();
		});
		lockThread.start();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> children("/locks/orders").size() == 2);
		lockThread.interrupt();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> children("/locks/orders").size() == 2);
		assertThat(uninterruptible).isNotDone();
		held.release();
		assertThat(uninterruptible.get(10, TimeUnit.SECONDS)).as("interrupt flag restored").isTrue();
	}

	@Test
	void shouldKeepTheQueuePlaceOfLockWhenInterrupted() throws Exception {
		ILockByCurator holderLocks = locks();
		LockHandle held = holderLocks.acquire("queue", LockMode.EXCLUSIVE);
		Lock waiterLock = locks().asLock("queue");
		CompletableFuture<Boolean> interruptedOnReturn = new CompletableFuture<>();
		CountDownLatch mayUnlock = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			waiterLock.lock();
			interruptedOnReturn.complete(Thread.currentThread().isInterrupted());
			Thread.interrupted();
			try {
				mayUnlock.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			waiterLock.unlock();
		});
		waiter.start();
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
			.until(() -> children("/locks/queue").size() == 2);
		ILockByCurator laterLocks = locks();
		CompletableFuture<LockHandle> later = CompletableFuture
			.supplyAsync(() -> laterLocks.acquire("queue", LockMode.EXCLUSIVE));
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
			.until(() -> children("/locks/queue").size() == 3);
		List<String> queue = sorted(children("/locks/queue"));

		waiter.interrupt();
		org.awaitility.Awaitility.await()
			.during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(5))
			.until(() -> sorted(children("/locks/queue")).equals(queue));
		held.release();
		assertThat(interruptedOnReturn.get(10, TimeUnit.SECONDS)).as("lock() set the interrupt flag again").isTrue();
		assertThat(later).as("the waiter behind kept waiting: lock() did not lose its place").isNotDone();
		mayUnlock.countDown();
		later.get(10, TimeUnit.SECONDS).release();
		waiter.join(10_000);
	}

	private static List<String> sorted(List<String> children) {
		return children.stream().sorted(java.util.Comparator.comparing((String name) -> name.substring(name.length() - 10)))
			.toList();
	}

	@Test
	void shouldWorkInsideCuratorsMultiLockAsInterProcessLockViews() throws Exception {
		ILockByCurator zklock = locks();
		CuratorFramework plainClient = client();
		InterProcessMultiLock multi = new InterProcessMultiLock(
				List.of(zklock.asInterProcessLock("a", LockMode.EXCLUSIVE), zklock.asInterProcessLock("b", LockMode.WRITE)));
		assertThat(multi.acquire(5, TimeUnit.SECONDS)).isTrue();
		assertThat(multi.isAcquiredInThisProcess()).isTrue();
		InterProcessMutex plainA = new InterProcessMutex(plainClient, "/locks/a");
		assertThat(CompletableFuture.supplyAsync(() -> {
			try {
				return plainA.acquire(200, TimeUnit.MILLISECONDS);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}).get(10, TimeUnit.SECONDS)).isFalse();
		multi.release();
		assertThat(multi.isAcquiredInThisProcess()).isFalse();
		assertThat(children("/locks/a")).isEmpty();
		assertThat(children("/locks/b")).isEmpty();
	}

	@Test
	void shouldTakeAllLocksInCanonicalOrderAllOrNothing() throws Exception {
		ILockByCurator first = locks();
		ILockByCurator second = locks();
		try (LockGroup group = first.tryAcquireAll(List.of("z", "a", "m", "a"), LockMode.EXCLUSIVE, Duration.ZERO)
			.orElseThrow()) {
			assertThat(group.locks()).extracting(LockHandle::lockPath).containsExactly("a", "m", "z");
			assertThat(group.isHeld()).isTrue();
		}
		LockHandle blocker = CompletableFuture.supplyAsync(() -> second.acquire("m", LockMode.EXCLUSIVE))
			.get(10, TimeUnit.SECONDS);
		assertThat(first.tryAcquireAll(List.of("z", "a", "m"), LockMode.EXCLUSIVE, Duration.ofMillis(300))).isEmpty();
		assertThat(children("/locks/a")).isEmpty();
		assertThat(children("/locks/z")).isEmpty();
		blocker.release();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> first.tryAcquireAll(List.of("a", "b//c"), LockMode.EXCLUSIVE, Duration.ZERO))
			.withMessageContaining("'b//c'");
		assertThat(children("/locks/a")).isEmpty();
	}

	@Test
	void shouldNotDeadlockOnReversedOrders() throws Exception {
		ILockByCurator first = locks();
		ILockByCurator second = locks();
		CountDownLatch start = new CountDownLatch(1);
		CompletableFuture<Integer> one = CompletableFuture.supplyAsync(() -> rounds(first, List.of("x", "y"), start));
		CompletableFuture<Integer> two = CompletableFuture.supplyAsync(() -> rounds(second, List.of("y", "x"), start));
		start.countDown();
		assertThat(one.get(50, TimeUnit.SECONDS) + two.get(50, TimeUnit.SECONDS)).isEqualTo(40);
	}

	private static int rounds(ILockByCurator locks, List<String> paths, CountDownLatch start) {
		try {
			start.await();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		int done = 0;
		for (int i = 0; i < 20; i++) {
			try (LockGroup group = locks.tryAcquireAll(paths, LockMode.EXCLUSIVE, Duration.ofSeconds(20)).orElseThrow()) {
				done++;
			}
		}
		return done;
	}

	private List<String> children(String path) throws Exception {
		CuratorFramework client = observer();
		return (client.checkExists().forPath(path) != null) ? client.getChildren().forPath(path) : List.of();
	}

	private ILockByCurator locks() throws InterruptedException {
		return new ExclusiveLockByCurator(client(), "/locks");
	}

	private CuratorFramework client() {
		return this.clients.newClient();
	}

	/** A client that only looks: each call makes a new one, closed after the test. */
	private CuratorFramework observer() {
		return this.clients.newClient();
	}

}
