package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.NAMESPACE;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitLockNodes;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static io.zklock.lock.ZkTestSupport.serverLockWatches;
import static io.zklock.lock.ZkTestSupport.serverWatchCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters that give up leave nothing behind: after a timeout, an interrupt or a release, the
 * lock path holds only the nodes of current holders (and of waiters still waiting) once the
 * give-up's delete is applied (it answers first, and deletes its node in the background), and the
 * server keeps no watch for a waiter that left.
 */
@Tag("slow")
class LockCleanupTests extends ZkServerTest {

	@Override
	@AfterEach
	void closeClients() {
		super.closeClients();
		// a test that leaves a watch behind must not blame the next one
		await().atMost(AWAIT).until(() -> serverLockWatches(server).isEmpty());
	}

	@Test
	@Timeout(30)
	void shouldLeaveNoNodeAfterTryingOnceWhileAnotherHolds() {
		String path = "cleanup/zero";
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		for (int i = 0; i < 3; i++) {
			assertThat(other.tryAcquire(path, Duration.ZERO)).isEmpty();
			awaitLockNodes(holderClient, path, nodeName(holder));
		}
		assertThat(serverLockWatches(server)).as("trying once never watches").isEmpty();
		holder.release();
		assertThat(lockNodes(holderClient, path)).isEmpty();
	}

	/**
	 * A wait that runs out before the round's first look (its pipelined listing is slow): the
	 * acquire gives up after waiting for that look as long as it may, and the guaranteed delete of
	 * its node must be sent before it returns, ahead of the listing that looks for other nodes of
	 * its create. Before the fix the delete waited for that listing's reply, after the acquire had
	 * returned.
	 */
	@Test
	@Timeout(30)
	void shouldSendTheDeleteOfItsNodeBeforeReturningWhenItGivesUpBeforeItsFirstLook() {
		String path = "cleanup/before-first-look";
		RecordingZooKeeper.Record record = new RecordingZooKeeper.Record("/" + NAMESPACE + basePath(path));
		CuratorFramework client = this.clients.newClient(NAMESPACE, RecordingZooKeeper.factory(record));
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(client, ROOT);
		locks.acquire(path, LockMode.EXCLUSIVE).release();
		record.events.clear();
		record.holdListings.set(1);
		try {
			assertThat(locks.tryAcquire(path, Duration.ofMillis(50))).as("no look within the wait and its bound")
				.isEmpty();
			record.events.add("returned");
			// a snapshot: a view of the live list fails when the engine records an event meanwhile
			List<String> events = List.copyOf(record.events);
			assertThat(events).as("calls of the acquire that gave up")
				.startsWith("send create", "send list", "hold list", "reply create");
			List<String> afterCreate = events.subList(4, events.size());
			assertThat(afterCreate.indexOf("send delete")).as("its delete, in %s", events)
				.isNotNegative()
				.isLessThan(afterCreate.indexOf("send list"))
				.isLessThan(afterCreate.indexOf("returned"));
			awaitLockNodes(client, path);
		}
		finally {
			record.listingGate.countDown();
		}
	}

	@Test
	@Timeout(30)
	void shouldLeaveNoNodeAndNoWatchAfterAWaitRunsOut() {
		String path = "cleanup/timeout";
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		long start = System.nanoTime();
		assertThat(other.tryAcquire(path, Duration.ofMillis(300))).isEmpty();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		awaitLockNodes(holderClient, path, nodeName(holder));
		await().atMost(AWAIT).until(() -> serverLockWatches(server).isEmpty());
		await().atMost(AWAIT).until(() -> serverWatchCount(server) == 0);
		holder.release();
		assertThat(lockNodes(holderClient, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldLeaveNoNodeAndNoWatchForAnInterruptedWaiter() throws Exception {
		String path = "cleanup/interrupt";
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator other = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		AtomicReference<Thread> waiterThread = new AtomicReference<>();
		AtomicBoolean interruptFlagSet = new AtomicBoolean();
		Future<Throwable> waiter = this.clients.background(() -> {
			waiterThread.set(Thread.currentThread());
			try {
				other.acquire(path, LockMode.EXCLUSIVE).release();
				return null;
			}
			catch (Throwable ex) {
				interruptFlagSet.set(Thread.currentThread().isInterrupted());
				return ex;
			}
		});
		awaitQueued(holderClient, path, 2);
		await().atMost(AWAIT).until(() -> serverLockWatches(server).size() == 1);
		waiterThread.get().interrupt();

		Throwable failure = waiter.get(20, TimeUnit.SECONDS);
		assertThat(failure).isInstanceOf(LockAcquisitionException.class)
			.hasMessageContaining("'" + path + "'")
			.hasRootCauseInstanceOf(InterruptedException.class);
		assertThat(((LockAcquisitionException) failure).getLockPath()).isEqualTo(path);
		assertThat(interruptFlagSet).as("interrupt flag set again").isTrue();
		awaitLockNodes(holderClient, path, nodeName(holder));
		await().atMost(AWAIT).until(() -> serverLockWatches(server).isEmpty());
		holder.release();
		assertThat(lockNodes(holderClient, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldReleaseTheNodeOfAThreadAlreadyInterruptedWhenAcquiring() throws Exception {
		String path = "cleanup/pre-interrupted";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		Future<Boolean> attempt = this.clients.background(() -> {
			Thread.currentThread().interrupt();
			try {
				lock.acquire(path, LockMode.EXCLUSIVE).release();
			}
			catch (LockAcquisitionException ex) {
				// refusing to start while interrupted is fine too
			}
			return Thread.currentThread().isInterrupted();
		});
		assertThat(attempt.get(20, TimeUnit.SECONDS)).as("interrupt flag kept").isTrue();
		await().atMost(AWAIT).until(() -> lockNodes(client, path).isEmpty());
		new ExclusiveLockByCurator(this.clients.newClient(), ROOT).tryAcquire(path, Duration.ZERO)
			.orElseThrow()
			.release();
	}

	@Test
	@Timeout(30)
	void shouldRepairTheQueueWhenAWaiterInTheMiddleTimesOut() throws Exception {
		String path = "cleanup/middle";
		String zkBasePath = "/" + NAMESPACE + basePath(path);
		CuratorFramework holderClient = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(holderClient, ROOT).acquire(path, LockMode.EXCLUSIVE);
		ExclusiveLockByCurator first = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator middle = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		ExclusiveLockByCurator last = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);

		CountDownLatch middleMayGiveUp = new CountDownLatch(1);
		Future<ReleaseResult> firstWaiter = this.clients
			.background(() -> first.acquire(path, LockMode.EXCLUSIVE).release());
		awaitQueued(holderClient, path, 2);
		Future<Optional<LockHandle>> middleWaiter = this.clients.background(() -> {
			middleMayGiveUp.await();
			return middle.tryAcquire(path, Duration.ofSeconds(3));
		});
		middleMayGiveUp.countDown();
		awaitQueued(holderClient, path, 3);
		Future<ReleaseResult> lastWaiter = this.clients
			.background(() -> last.acquire(path, LockMode.EXCLUSIVE).release());
		awaitQueued(holderClient, path, 4);
		List<String> queue = lockNodes(holderClient, path);

		assertThat(middleWaiter.get(20, TimeUnit.SECONDS)).isEmpty();
		awaitLockNodes(holderClient, path, queue.get(0), queue.get(1), queue.get(3));
		// the last waiter now watches the first waiter; the middle one's watch is gone
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(serverLockWatches(server)).containsExactlyInAnyOrder(
					zkBasePath + "/" + queue.get(0), zkBasePath + "/" + queue.get(1)));
		assertThat(lastWaiter).isNotDone();

		holder.release();
		assertThat(firstWaiter.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lastWaiter.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(holderClient, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldKeepTheWatchOfAReaderOfTheSameProcessWhenAnotherReaderTimesOut() throws Exception {
		String path = "cleanup/readers-same-client";
		String zkBasePath = "/" + NAMESPACE + basePath(path);
		CuratorFramework writerClient = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(writerClient, ROOT).acquire(path, LockMode.WRITE);
		String writerNode = zkBasePath + "/" + nodeName(writer);
		// two readers in one process wait for the same writer node: one server watch
		SharedLockByCurator readers = new SharedLockByCurator(this.clients.newClient(), ROOT);
		Future<Optional<LockHandle>> patient = this.clients
			.background(() -> readers.tryAcquire(path, LockMode.READ, Duration.ofSeconds(20)));
		awaitQueued(writerClient, path, 2);
		Future<Optional<LockHandle>> impatient = this.clients
			.background(() -> readers.tryAcquire(path, LockMode.READ, Duration.ofMillis(300)));
		awaitQueued(writerClient, path, 3);

		assertThat(impatient.get(20, TimeUnit.SECONDS)).isEmpty();
		awaitQueued(writerClient, path, 2);
		assertThat(serverLockWatches(server)).as("the patient reader still watches the writer")
			.containsExactly(writerNode);
		assertThat(patient).isNotDone();

		writer.release();
		LockHandle reader = patient.get(20, TimeUnit.SECONDS).orElseThrow();
		assertThat(reader.isHeld()).isTrue();
		reader.release();
		assertThat(lockNodes(writerClient, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldLeaveNoWatchWhenReadersOfTheSameProcessAllTimeOut() throws Exception {
		String path = "cleanup/readers-all-time-out";
		CuratorFramework writerClient = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(writerClient, ROOT).acquire(path, LockMode.WRITE);
		SharedLockByCurator readers = new SharedLockByCurator(this.clients.newClient(), ROOT);
		Future<Optional<LockHandle>> one = this.clients
			.background(() -> readers.tryAcquire(path, LockMode.READ, Duration.ofMillis(400)));
		Future<Optional<LockHandle>> two = this.clients
			.background(() -> readers.tryAcquire(path, LockMode.READ, Duration.ofMillis(600)));
		assertThat(one.get(20, TimeUnit.SECONDS)).isEmpty();
		assertThat(two.get(20, TimeUnit.SECONDS)).isEmpty();
		awaitLockNodes(writerClient, path, nodeName(writer));
		await().atMost(AWAIT).until(() -> serverLockWatches(server).isEmpty());
		writer.release();
	}

	@Test
	@Timeout(30)
	void shouldDeleteTheNodeOnRelease() throws Exception {
		String path = "cleanup/release";
		CuratorFramework client = this.clients.newClient();
		ExclusiveLockByCurator lock = new ExclusiveLockByCurator(client, ROOT);
		LockHandle handle = lock.acquire(path, LockMode.EXCLUSIVE);
		assertThat(lockNodes(client, path)).containsExactly(nodeName(handle));
		assertThat(handle.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
		assertThat(client.checkExists().forPath(handle.nodePath())).isNull();
	}

	private static String nodeName(LockHandle handle) {
		return handle.nodePath().substring(handle.nodePath().lastIndexOf('/') + 1);
	}

}
