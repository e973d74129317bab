package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
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
import static org.awaitility.Awaitility.await;

/**
 * The deadlock detector fails an acquire only for a cycle that no thread on it can leave: every
 * wait on it without a limit, every hold on it live and thread-owned. Before, it failed any cycle
 * of thread-owned holds: a thread's unbounded {@code lock()} when the other thread on the cycle
 * waited with {@code tryLock(3 s)} (the back-off that avoids a deadlock: the thread meant to win
 * was refused after 21 ms), a {@code tryLock()} that cannot deadlock (it threw instead of returning
 * {@code false}, against {@link Lock}'s contract), and a wait for a lock whose holder's session had
 * ended (free in ZooKeeper, refused after 2 ms).
 */
@Timeout(90)
class DeadlockDetectionTests extends ZkServerTest {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	/**
	 * Thread U holds A and waits for B with {@code tryLock(3 s)}; thread T holds B and calls
	 * {@code lock()} on A. T waits, U gives up and unlocks A, T gets A; U's refusal names the cycle.
	 */
	@Test
	void shouldLetAnUnboundedWaitGoOnWhenATimedWaitOnTheCycleGivesUp() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();
		Lock a = locks.asLock("backoff/a");
		Lock b = locks.asLock("backoff/b");
		CountDownLatch uHoldsA = new CountDownLatch(1);
		CountDownLatch tHoldsB = new CountDownLatch(1);
		Future<Optional<LockRefusal>> u = this.threads.submit(() -> {
			Thread.currentThread().setName("backoff-u");
			a.lock();
			try {
				uHoldsA.countDown();
				tHoldsB.await();
				if (b.tryLock(3, TimeUnit.SECONDS)) {
					b.unlock();
					return Optional.empty();
				}
				return locks.lastRefusal();
			}
			finally {
				a.unlock();
			}
		});
		Future<String> t = this.threads.submit(() -> {
			Thread.currentThread().setName("backoff-t");
			b.lock();
			try {
				tHoldsB.countDown();
				uHoldsA.await();
				awaitQueued(observer, "backoff/b", 2);
				a.lock();
				a.unlock();
				return "granted";
			}
			catch (LockDeadlockException ex) {
				return ex.getMessage();
			}
			finally {
				b.unlock();
			}
		});
		assertThat(t.get(30, TimeUnit.SECONDS)).as("the unbounded lock() on the cycle").isEqualTo("granted");
		assertThat(u.get(30, TimeUnit.SECONDS)).as("the refusal of the timed wait that gave up")
			.hasValueSatisfying((refusal) -> {
				assertThat(refusal.reason()).isEqualTo(LockRefusal.Reason.DEADLOCK);
				assertThat(refusal.lockPath()).isEqualTo("backoff/b");
				assertThat(refusal.message())
					.startsWith("Could not acquire the EXCLUSIVE lock on 'backoff/b' within 3s: it waited for a deadlock "
							+ "in this process: thread 'backoff-u' waits for the EXCLUSIVE lock on 'backoff/b'")
					.contains("which thread 'backoff-t' holds (thread-owned)")
					.contains("thread 'backoff-t' waits for the EXCLUSIVE lock on 'backoff/a'")
					.contains("which thread 'backoff-u' holds (thread-owned)");
			});
	}

	/**
	 * A zero wait cannot deadlock: on a cycle whose other thread waits without a limit,
	 * {@code tryLock()} returns {@code false} and {@code tryAcquire(…, Duration.ZERO)} and
	 * {@code tryAcquireAll(…, Duration.ZERO)} return empty, each with a refusal that says
	 * {@code DEADLOCK}; none throws. {@code tryLock(time, unit)} likewise.
	 */
	@Test
	void shouldReturnFalseOrEmptyInsteadOfThrowingForACycleOnAWaitWithALimit() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();
		Lock a = locks.asLock("zero/a");
		Lock b = locks.asLock("zero/b");
		a.lock();
		Future<String> other;
		try {
			CountDownLatch holdsB = new CountDownLatch(1);
			other = this.threads.submit(() -> {
				Thread.currentThread().setName("zero-other");
				b.lock();
				try {
					holdsB.countDown();
					a.lock();
					a.unlock();
					return "granted";
				}
				finally {
					b.unlock();
				}
			});
			assertThat(holdsB.await(20, TimeUnit.SECONDS)).isTrue();
			awaitQueued(observer, "zero/a", 2);

			assertThat(b.tryLock()).as("tryLock() on the cycle").isFalse();
			assertDeadlockRefusal(locks, "zero/b");
			assertThat(b.tryLock(200, TimeUnit.MILLISECONDS)).as("tryLock(200 ms) on the cycle").isFalse();
			assertDeadlockRefusal(locks, "zero/b");
			assertThat(locks.tryAcquire("zero/b", LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertDeadlockRefusal(locks, "zero/b");
			assertThat(locks.tryAcquire(LockRequest.of("zero/b", LockMode.EXCLUSIVE)
				.ownedBy(HoldOwner.THREAD)
				.waitAtMost(Duration.ZERO))).isEmpty();
			assertDeadlockRefusal(locks, "zero/b");
			assertThat(locks.tryAcquireAll(List.of("zero/b", "zero/c"), LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
			assertDeadlockRefusal(locks, "zero/b");
		}
		finally {
			a.unlock();
		}
		assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo("granted");
	}

	/**
	 * A hold whose session ended (LOST, its lock node gone) keeps nobody out: a thread that waits
	 * for a lock held by this one, while holding such a hold on the lock path this one asks for,
	 * closes no cycle, and this one gets the lock, which is free in ZooKeeper.
	 */
	@Test
	void shouldNotCountALostHoldOnACycle() throws Exception {
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		CuratorFramework observer = this.clients.newClient();
		Lock a = locks.asLock("lost/a");
		Lock b = locks.asLock("lost/b");
		CountDownLatch holdsA = new CountDownLatch(1);
		CountDownLatch mainHoldsB = new CountDownLatch(1);
		Future<String> lostHolder = this.threads.submit(() -> {
			Thread.currentThread().setName("lost-holder");
			a.lock();
			try {
				holdsA.countDown();
				mainHoldsB.await();
				b.lock();
				b.unlock();
				return "granted";
			}
			finally {
				a.unlock();
			}
		});
		assertThat(holdsA.await(20, TimeUnit.SECONDS)).isTrue();
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		ZkTestSupport.expireSession(server, client);
		await().atMost(AWAIT).until(() -> locks.heldLocks().stream()
			.anyMatch((held) -> held.lockPath().equals("lost/a") && held.state() == LockState.LOST));
		await().atMost(AWAIT).until(() -> client.getZookeeperClient().isConnected()
				&& client.getZookeeperClient().getZooKeeper().getSessionId() != session);
		b.lock();
		try {
			mainHoldsB.countDown();
			awaitQueued(observer, "lost/b", 2);
			a.lock();
			a.unlock();
		}
		finally {
			b.unlock();
		}
		assertThat(lostHolder.get(30, TimeUnit.SECONDS)).isEqualTo("granted");
	}

	/**
	 * A cycle that becomes certain later fails the acquire that makes it so: T waits without a
	 * limit on a cycle with U's timed wait (not failed); U's wait runs out, and U then waits for
	 * the same lock without a limit, holding on: now no thread on the cycle can go on, and U's
	 * acquire fails at once. U unwinds, and T gets its lock.
	 */
	@Test
	void shouldFailTheAcquireThatMakesALikelyCycleCertain() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		CuratorFramework observer = this.clients.newClient();
		Lock a = locks.asLock("later/a");
		Lock b = locks.asLock("later/b");
		CountDownLatch uHoldsA = new CountDownLatch(1);
		CountDownLatch tHoldsB = new CountDownLatch(1);
		CountDownLatch tWaits = new CountDownLatch(1);
		Future<String> u = this.threads.submit(() -> {
			Thread.currentThread().setName("later-u");
			a.lock();
			try {
				uHoldsA.countDown();
				tHoldsB.await();
				awaitQueued(observer, "later/a", 2);
				tWaits.await();
				String timed;
				try {
					timed = String.valueOf(b.tryLock(300, TimeUnit.MILLISECONDS));
				}
				catch (LockDeadlockException ex) {
					timed = "threw";
				}
				String unbounded;
				try {
					b.lock();
					b.unlock();
					unbounded = "granted";
				}
				catch (LockDeadlockException ex) {
					unbounded = ex.getMessage();
				}
				return timed + " | " + unbounded;
			}
			finally {
				a.unlock();
			}
		});
		Future<String> t = this.threads.submit(() -> {
			Thread.currentThread().setName("later-t");
			b.lock();
			try {
				tHoldsB.countDown();
				uHoldsA.await();
				tWaits.countDown();
				a.lock();
				a.unlock();
				return "granted";
			}
			catch (LockDeadlockException ex) {
				return ex.getMessage();
			}
			finally {
				b.unlock();
			}
		});
		assertThat(u.get(30, TimeUnit.SECONDS)).as("U's timed wait, then its unbounded one once the timed one ran out")
			.startsWith("false | Deadlock in this process: thread 'later-u' waits for the EXCLUSIVE lock on 'later/b'")
			.contains("thread 'later-t' waits for the EXCLUSIVE lock on 'later/a'");
		assertThat(t.get(30, TimeUnit.SECONDS)).as("T's unbounded wait, on the cycle all along").isEqualTo("granted");
	}

	/**
	 * Two threads that close a true deadlock (two waits without a limit, x then y and y then x) at
	 * the same moment: exactly one fails, at once, and the other gets its lock once the failed one
	 * unwinds. Ten rounds, the two acquires released together by a barrier.
	 */
	@Test
	void shouldFailExactlyOneOfTwoThreadsThatCloseADeadlockTogether() throws Exception {
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		for (int round = 0; round < 10; round++) {
			Lock x = locks.asLock("together/" + round + "/x");
			Lock y = locks.asLock("together/" + round + "/y");
			CyclicBarrier both = new CyclicBarrier(2);
			Future<String> first = this.threads.submit(() -> crossing(x, y, both));
			Future<String> second = this.threads.submit(() -> crossing(y, x, both));
			List<String> outcomes = new ArrayList<>(List.of(first.get(30, TimeUnit.SECONDS),
					second.get(30, TimeUnit.SECONDS)));
			assertThat(outcomes).as("round %d", round).filteredOn("granted"::equals).hasSize(1);
			assertThat(outcomes).as("round %d", round)
				.filteredOn((outcome) -> outcome.startsWith("Deadlock in this process: "))
				.hasSize(1);
		}
	}

	/** Holds {@code held}, then, with the other thread, asks for {@code wanted} without a limit. */
	private static String crossing(Lock held, Lock wanted, CyclicBarrier both) throws Exception {
		held.lock();
		try {
			both.await(20, TimeUnit.SECONDS);
			wanted.lock();
			wanted.unlock();
			return "granted";
		}
		catch (LockDeadlockException ex) {
			return ex.getMessage();
		}
		finally {
			held.unlock();
		}
	}

	private static void assertDeadlockRefusal(ILockByCurator locks, String lockPath) {
		assertThat(locks.lastRefusal()).hasValueSatisfying((refusal) -> {
			assertThat(refusal.reason()).isEqualTo(LockRefusal.Reason.DEADLOCK);
			assertThat(refusal.lockPath()).isEqualTo(lockPath);
			assertThat(refusal.message()).contains(": it waited for a deadlock in this process: thread '"
					+ Thread.currentThread().getName() + "' waits for the EXCLUSIVE lock on '" + lockPath + "'")
				.contains("which thread 'zero-other' holds (thread-owned)");
		});
	}

}
