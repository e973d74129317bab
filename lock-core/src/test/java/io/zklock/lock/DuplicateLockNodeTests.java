package io.zklock.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.AWAIT;
import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Curator's protected mode can leave a second node of one create: the lock node's create is
 * applied, its reply is lost with the connection, the client reconnects to a follower that has
 * not applied the create yet, and Curator's search for the protected id ({@code _c_<uuid>-})
 * lists the parent there, misses the node and creates another with the same id. Both belong to
 * the acquiring session; the older one stands ahead in the queue. Simulated at the client
 * boundary ({@link FaultyZooKeeper}): the create's reply is dropped and Curator's search that
 * follows answers without the node, as that follower would. A node with the attempt's own
 * protected id is the attempt's: it must never block it, and no exit may leave it behind.
 */
@Timeout(60)
@Tag("slow")
class DuplicateLockNodeTests extends ZkServerTest {

	private static final String PATH = "jobs";

	private static final String LOCKS = "/" + ZkTestSupport.NAMESPACE + basePath(PATH);

	@Test
	void shouldTakeAFreeLockAtOnceWhenCuratorLeftASecondNodeOfTheCreate() {
		FaultyZooKeeper.Faults faults = duplicatingCreate();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(lossyClient(faults), ROOT);
		CuratorFramework observer = this.clients.newClient();
		ExclusiveLockByCurator rival = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);

		long start = System.nanoTime();
		Optional<LockHandle> lock = locks.tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ofSeconds(5));
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		System.out.printf("[figures] free lock, second node of our create: %s after %d ms%n",
				lock.isPresent() ? "granted" : "timed out", millis);

		assertThat(faults.staleSearches).as("Curator's search missed the first node").hasValue(1);
		assertThat(lock).as("a free lock, behind nothing but our own node").isPresent();
		LockHandle held = lock.get();
		await().atMost(AWAIT).until(() -> lockNodes(observer, PATH).size() == 1);
		assertThat(held.nodePath()).endsWith(lockNodes(observer, PATH).get(0));
		assertThat(rival.tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ZERO)).as("still exclusive").isEmpty();
		assertThat(held.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(observer, PATH)).isEmpty();
		rival.tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ZERO).orElseThrow().release();
	}

	@Test
	void shouldLeaveNeitherNodeWhenTheWaitRunsOut() throws Exception {
		FaultyZooKeeper.Faults faults = duplicatingCreate();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(lossyClient(faults), ROOT);
		CuratorFramework observer = this.clients.newClient();
		LockHandle holder = new ExclusiveLockByCurator(observer, ROOT).acquire(PATH, LockMode.EXCLUSIVE);

		assertThat(locks.tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ofSeconds(1))).isEmpty();
		assertThat(faults.staleSearches).hasValue(1);
		await().atMost(AWAIT).until(() -> lockNodes(observer, PATH).size() == 1);
		assertThat(holder.nodePath()).endsWith(lockNodes(observer, PATH).get(0));
		holder.release();
		new ExclusiveLockByCurator(this.clients.newClient(), ROOT).tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ZERO)
			.orElseThrow()
			.release();
	}

	@Test
	void shouldLeaveNeitherNodeWhenInterruptedWhileCuratorCreatesTheSecondNode() throws Exception {
		FaultyZooKeeper.Faults faults = duplicatingCreate();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(lossyClient(faults), ROOT);
		CuratorFramework observer = this.clients.newClient();
		AtomicReference<Thread> caller = new AtomicReference<>();
		// the acquire gives up while its create is still in Curator's hands: the reply comes later
		faults.beforeStaleSearch = () -> caller.get().interrupt();

		Future<Throwable> acquire = this.clients.background(() -> {
			caller.set(Thread.currentThread());
			try {
				locks.acquire(PATH, LockMode.EXCLUSIVE).release();
				return null;
			}
			catch (LockAcquisitionException ex) {
				return ex;
			}
		});

		assertThat(acquire.get(20, TimeUnit.SECONDS)).hasRootCauseInstanceOf(InterruptedException.class);
		// the interrupt comes from the hook just before the search counts itself, on Curator's thread
		await().atMost(AWAIT).untilAsserted(() -> assertThat(faults.staleSearches).hasValue(1));
		await().atMost(AWAIT).until(() -> lockNodes(observer, PATH).isEmpty());
		new ExclusiveLockByCurator(observer, ROOT).tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ZERO)
			.orElseThrow()
			.release();
	}

	@Test
	void shouldLetAWriterQueuedBetweenOurTwoReadNodesGoFirst() throws Exception {
		FaultyZooKeeper.Faults faults = duplicatingCreate();
		SharedLockByCurator readers = new SharedLockByCurator(lossyClient(faults), ROOT);
		CuratorFramework observer = this.clients.newClient();
		SharedLockByCurator writers = new SharedLockByCurator(this.clients.newClient(), ROOT);
		AtomicReference<Future<LockHandle>> writer = new AtomicReference<>();
		// a writer queues behind our first READ node, before Curator creates the second one
		faults.beforeStaleSearch = () -> {
			writer.set(this.clients.background(
					() -> writers.tryAcquire(PATH, LockMode.WRITE, Duration.ofSeconds(20)).orElseThrow()));
			awaitQueued(observer, PATH, 2);
		};

		Future<LockHandle> reader = this.clients
			.background(() -> readers.tryAcquire(PATH, LockMode.READ, Duration.ofSeconds(20)).orElseThrow());

		LockHandle written = started(writer).get(20, TimeUnit.SECONDS);
		assertThat(faults.staleSearches).hasValue(1);
		assertThat(reader).as("the reader queued after the writer waits for it").isNotDone();
		assertThat(written.release()).isEqualTo(ReleaseResult.RELEASED);
		LockHandle read = reader.get(20, TimeUnit.SECONDS);
		assertThat(read.fencingToken()).isGreaterThan(written.fencingToken());
		assertThat(lockNodes(observer, PATH)).hasSize(1);
		read.release();
		assertThat(lockNodes(observer, PATH)).isEmpty();
	}

	@Test
	void shouldLetACuratorMutexQueuedBetweenOurTwoNodesGoFirst() throws Exception {
		FaultyZooKeeper.Faults faults = duplicatingCreate();
		ExclusiveLockByCurator locks = new ExclusiveLockByCurator(lossyClient(faults), ROOT);
		CuratorFramework observer = this.clients.newClient();
		InterProcessMutex mutex = new InterProcessMutex(this.clients.newClient(), basePath(PATH));
		// Curator's mutex is released only by the thread that acquired it
		ExecutorService curator = Executors.newSingleThreadExecutor();
		AtomicReference<Future<Boolean>> peer = new AtomicReference<>();
		faults.beforeStaleSearch = () -> {
			peer.set(curator.submit(() -> mutex.acquire(20, TimeUnit.SECONDS)));
			awaitQueued(observer, PATH, 2);
		};
		try {
			Future<LockHandle> ours = this.clients
				.background(() -> locks.tryAcquire(PATH, LockMode.EXCLUSIVE, Duration.ofSeconds(20)).orElseThrow());

			assertThat(started(peer).get(20, TimeUnit.SECONDS)).as("the mutex queued between our nodes").isTrue();
			assertThat(faults.staleSearches).hasValue(1);
			assertThat(ours).as("our node after the mutex waits for it").isNotDone();
			curator.submit(() -> {
				mutex.release();
				return null;
			}).get(20, TimeUnit.SECONDS);
			ours.get(20, TimeUnit.SECONDS).release();
			assertThat(lockNodes(observer, PATH)).isEmpty();
		}
		finally {
			curator.shutdownNow();
		}
	}

	private static <T> Future<T> started(AtomicReference<Future<T>> started) {
		await().atMost(AWAIT).until(() -> started.get() != null);
		return started.get();
	}

	/** Faults under the lock path: see {@link #lossyClient(FaultyZooKeeper.Faults)}. */
	private static FaultyZooKeeper.Faults duplicatingCreate() {
		return new FaultyZooKeeper.Faults(LOCKS);
	}

	/**
	 * A client whose next lock-node create, once armed, duplicates; its first lock makes the lock
	 * path, as for a lock in use, before the faults are armed.
	 */
	private CuratorFramework lossyClient(FaultyZooKeeper.Faults faults) {
		CuratorFramework client = this.clients.newClient((builder) -> builder
			.zookeeperFactory(FaultyZooKeeper.factory(faults))
			.retryPolicy(new RetryNTimes(3, 50)));
		new ExclusiveLockByCurator(client, ROOT).acquire(PATH, LockMode.EXCLUSIVE).release();
		faults.dropNextCreateReply.set(true);
		faults.staleSearchAfterLostReply.set(true);
		return client;
	}

}
