package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * An acquire that returns empty says why, without an exception: {@link ILockByCurator#lastRefusal()}
 * gives the reason (busy, deadlock, the thread's own call-owned hold, not connected) and the
 * message {@code acquire} would have thrown, alike for {@code tryAcquire}, {@code tryAcquireAll} and
 * the {@link Lock} view's {@code tryLock}. Before, an empty result carried no reason: only an
 * exception's message told busy from a deadlock or a lost connection.
 */
@Timeout(90)
class LockRefusalTests extends ZkServerTest {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void shouldSayBusyWhenAnotherProcessHoldsTheLock() {
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		try (LockHandle held = other.acquire("refusal/busy", LockMode.EXCLUSIVE)) {
			assertThat(locks.tryAcquire("refusal/busy", LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertRefusal(locks, "refusal/busy", LockRefusal.Reason.BUSY)
				.startsWith("Could not acquire the EXCLUSIVE lock on 'refusal/busy' within 0s");

			assertThat(locks.tryAcquireAll(List.of("refusal/free", "refusal/busy"), LockMode.EXCLUSIVE,
					Duration.ofMillis(100))).isEmpty();
			assertRefusal(locks, "refusal/busy", LockRefusal.Reason.BUSY)
				.contains(": it waited for lock node " + held.nodePath().substring(held.nodePath().lastIndexOf('/') + 1)
						+ " (the holder's)");

			assertThat(locks.asLock("refusal/busy").tryLock()).isFalse();
			assertRefusal(locks, "refusal/busy", LockRefusal.Reason.BUSY);
		}
	}

	@Test
	void shouldThrowTheRefusalsWordsFromTheDefaultAcquireOfALockApiOfYourOwn() {
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator zklock = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		// an application's own lock API over zklock's: the primitive and the refusal, the rest defaults
		ILockByCurator own = new ILockByCurator() {

			@Override
			public Optional<LockHandle> tryAcquire(LockRequest request) {
				return zklock.tryAcquire(request);
			}

			@Override
			public Optional<LockRefusal> lastRefusal() {
				return zklock.lastRefusal();
			}

		};
		try (LockHandle held = other.acquire("refusal/own-api", LockMode.EXCLUSIVE)) {
			LockAcquisitionException busy = catchThrowableOfType(LockAcquisitionException.class,
					() -> own.acquire(LockRequest.of("refusal/own-api", LockMode.EXCLUSIVE)
						.waitAtMost(Duration.ofMillis(100))));
			assertThat(busy).hasMessage(own.lastRefusal().orElseThrow().message())
				.hasMessageContaining(": it waited for lock node ");
		}
	}

	@Test
	void shouldSayBusyWhenAnotherThreadOfThisProcessHoldsTheLock() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Future<?> holder = this.threads.submit(() -> {
			Thread.currentThread().setName("refusal-holder");
			Lock lock = locks.asLock("refusal/local");
			lock.lock();
			try {
				holding.countDown();
				done.await();
			}
			finally {
				lock.unlock();
			}
			return null;
		});
		try {
			assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
			assertThat(locks.asLock("refusal/local").tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
			assertRefusal(locks, "refusal/local", LockRefusal.Reason.BUSY)
				.startsWith("Could not acquire the EXCLUSIVE lock on 'refusal/local' within 100ms: it waited for this "
						+ "process's own EXCLUSIVE hold: thread 'refusal-holder' holds (thread-owned)");
		}
		finally {
			done.countDown();
			holder.get(20, TimeUnit.SECONDS);
		}
	}

	@Test
	void shouldSayDeadlockWhenTheAcquireWouldCloseACycle() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();
		Lock a = locks.asLock("refusal/cycle-a");
		Lock b = locks.asLock("refusal/cycle-b");
		a.lock();
		Future<?> other;
		try {
			CountDownLatch holdsB = new CountDownLatch(1);
			other = this.threads.submit(() -> {
				b.lock();
				try {
					holdsB.countDown();
					a.lock();
					a.unlock();
				}
				finally {
					b.unlock();
				}
				return null;
			});
			assertThat(holdsB.await(20, TimeUnit.SECONDS)).isTrue();
			awaitQueued(observer, "refusal/cycle-a", 2);

			assertThat(locks.tryAcquire(LockRequest.of("refusal/cycle-b", LockMode.EXCLUSIVE)
				.ownedBy(HoldOwner.THREAD)
				.waitAtMost(Duration.ZERO))).isEmpty();
			assertRefusal(locks, "refusal/cycle-b", LockRefusal.Reason.DEADLOCK)
				.contains(": it waited for a deadlock in this process: ");
			assertThat(locks.tryAcquireAll(List.of("refusal/cycle-b"), LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertRefusal(locks, "refusal/cycle-b", LockRefusal.Reason.DEADLOCK);
			assertThat(b.tryLock()).isFalse();
			assertRefusal(locks, "refusal/cycle-b", LockRefusal.Reason.DEADLOCK);
		}
		finally {
			a.unlock();
		}
		other.get(30, TimeUnit.SECONDS);
	}

	@Test
	void shouldSayOwnCallOwnedHoldWhenTheThreadHoldsTheLockThroughACallOwnedHandle() {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		try (LockHandle held = locks.acquire("refusal/own", LockMode.EXCLUSIVE)) {
			assertThat(locks.tryAcquire("refusal/own", LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertRefusal(locks, "refusal/own", LockRefusal.Reason.OWN_CALL_OWNED_HOLD)
				.contains(": it waited for a likely deadlock in this process: thread '" + Thread.currentThread().getName()
						+ "' waits for the EXCLUSIVE lock on 'refusal/own', which a call-owned handle holds");
			assertThat(locks.tryAcquireAll(List.of("refusal/own", "refusal/own-2"), LockMode.EXCLUSIVE, Duration.ZERO))
				.isEmpty();
			assertRefusal(locks, "refusal/own", LockRefusal.Reason.OWN_CALL_OWNED_HOLD);
			assertThat(locks.asLock("refusal/own").tryLock()).isFalse();
			assertRefusal(locks, "refusal/own", LockRefusal.Reason.OWN_CALL_OWNED_HOLD);
		}
	}

	@Test
	void shouldSayNotConnectedWhenTheWaitRanOutWhileDisconnected() throws Exception {
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		server.stop();
		try {
			await().atMost(AWAIT).until(() -> !client.getZookeeperClient().isConnected());
			assertThat(locks.tryAcquire("refusal/offline", LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertRefusal(locks, "refusal/offline", LockRefusal.Reason.NOT_CONNECTED)
				.contains(": the ZooKeeper client was not connected (since ");
			assertThat(locks.tryAcquireAll(List.of("refusal/offline"), LockMode.EXCLUSIVE, Duration.ofMillis(100)))
				.isEmpty();
			assertRefusal(locks, "refusal/offline", LockRefusal.Reason.NOT_CONNECTED);
			assertThat(locks.asLock("refusal/offline").tryLock()).isFalse();
			assertRefusal(locks, "refusal/offline", LockRefusal.Reason.NOT_CONNECTED);
		}
		finally {
			server.restart();
		}
	}

	/**
	 * The refusal belongs to the thread and its last acquire: the next acquire replaces it (a grant
	 * leaves none), another thread never sees it, and both beans over one engine answer alike.
	 */
	@Test
	void shouldKeepTheRefusalToTheThreadAndItsLastAcquire() throws Exception {
		LockEngine engine = new LockEngine(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(engine);
		SharedLockByCurator shared = new SharedLockByCurator(engine);
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		assertThat(locks.lastRefusal()).isEmpty();
		try (LockHandle held = other.acquire("refusal/thread", LockMode.EXCLUSIVE)) {
			assertThat(locks.tryAcquire("refusal/thread", LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertThat(locks.lastRefusal()).isPresent();
			assertThat(shared.lastRefusal()).isEqualTo(locks.lastRefusal());
			assertThat(engine.lastRefusal()).isEqualTo(locks.lastRefusal());
			assertThat(this.threads.submit(locks::lastRefusal).get(20, TimeUnit.SECONDS)).as("on another thread")
				.isEmpty();
		}
		try (LockHandle granted = locks.tryAcquire("refusal/thread", LockMode.EXCLUSIVE, Duration.ofSeconds(10))
			.orElseThrow()) {
			assertThat(locks.lastRefusal()).as("after a grant").isEmpty();
		}
	}

	/** {@code acquire} throws the refusal's own words: the two never disagree. */
	@Test
	void shouldThrowTheRefusalsMessageFromAcquire() {
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		try (LockHandle held = other.acquire("refusal/acquire", LockMode.EXCLUSIVE)) {
			LockAcquisitionException timeout = catchThrowableOfType(LockAcquisitionException.class,
					() -> locks.acquire(LockRequest.of("refusal/acquire", LockMode.EXCLUSIVE).waitAtMost(Duration.ZERO)));
			Optional<LockRefusal> refusal = locks.lastRefusal();
			assertThat(refusal).hasValueSatisfying((why) -> {
				assertThat(why.reason()).isEqualTo(LockRefusal.Reason.BUSY);
				assertThat(timeout).hasMessage(why.message());
				assertThat(timeout.getLockPath()).isEqualTo("refusal/acquire");
			});
		}
	}

	/** Asserts the current thread's refusal; returns an assertion on its message. */
	private static org.assertj.core.api.AbstractStringAssert<?> assertRefusal(ILockByCurator locks, String lockPath,
			LockRefusal.Reason reason) {
		LockRefusal refusal = locks.lastRefusal().orElseThrow(() -> new AssertionError("no refusal for " + lockPath));
		assertThat(refusal.reason()).as("reason of %s", refusal).isEqualTo(reason);
		assertThat(refusal.lockPath()).isEqualTo(lockPath);
		assertThat(refusal.mode()).isEqualTo(LockMode.EXCLUSIVE);
		return assertThat(refusal.message()).as("message of %s", refusal)
			.startsWith("Could not acquire the EXCLUSIVE lock on '" + lockPath + "' within ");
	}

}
