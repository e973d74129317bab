package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The read/write lock against a real ZooKeeper server: readers share, writers exclude,
 * a reader waits only for the writers queued before it, WRITE and EXCLUSIVE exclude each
 * other, and a thread may downgrade but not upgrade.
 */
@Tag("slow")
class SharedLockTests extends ZkServerTest {

	private static final Duration SHORT = Duration.ofMillis(200);

	private SharedLockByCurator newLock() {
		return new SharedLockByCurator(this.clients.newClient(), ROOT);
	}

	@Test
	@Timeout(30)
	void shouldLetReadersHoldTheLockTogether() {
		String path = "rw/readers-share";
		List<LockHandle> readers = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			readers.add(newLock().tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow());
		}
		assertThat(readers).allSatisfy((reader) -> {
			assertThat(reader.isHeld()).isTrue();
			assertThat(reader.mode()).isEqualTo(LockMode.READ);
			assertThat(reader.nodePath()).matches(".*__READ__\\d{10}");
		});
		assertThat(lockNodes(this.clients.newClient(), path)).hasSize(3);
		readers.forEach(LockHandle::release);
	}

	@Test
	@Timeout(30)
	void shouldUseReadAsTheDefaultModeOfTheSharedLock() {
		String path = "rw/default-read";
		SharedLockByCurator first = newLock();
		SharedLockByCurator second = newLock();
		assertThat(first.defaultMode()).isEqualTo(LockMode.READ);
		LockHandle one = first.tryAcquire(path, Duration.ZERO).orElseThrow();
		LockHandle two = second.tryAcquire(path, Duration.ZERO).orElseThrow();
		assertThat(one.mode()).isEqualTo(LockMode.READ);
		assertThat(two.mode()).isEqualTo(LockMode.READ);
		one.release();
		two.release();
	}

	@Test
	@Timeout(30)
	void shouldKeepReadersAndWritersOutWhileAWriterHolds() {
		String path = "rw/writer-excludes";
		LockHandle writer = newLock().acquire(path, LockMode.WRITE);
		assertThat(writer.nodePath()).matches(".*__WRIT__\\d{10}");
		SharedLockByCurator other = newLock();
		assertThat(other.tryAcquire(path, LockMode.READ, Duration.ZERO)).isEmpty();
		assertThat(other.tryAcquire(path, LockMode.READ, SHORT)).isEmpty();
		assertThat(other.tryAcquire(path, LockMode.WRITE, SHORT)).isEmpty();
		writer.release();
		other.tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow().release();
	}

	@Test
	@Timeout(30)
	void shouldKeepAWriterOutUntilTheLastReaderLeaves() throws Exception {
		String path = "rw/readers-exclude-writer";
		LockHandle reader1 = newLock().acquire(path, LockMode.READ);
		LockHandle reader2 = newLock().acquire(path, LockMode.READ);
		CuratorFramework writerClient = this.clients.newClient();
		SharedLockByCurator writerLock = new SharedLockByCurator(writerClient, ROOT);
		assertThat(writerLock.tryAcquire(path, LockMode.WRITE, SHORT)).isEmpty();

		CountDownLatch writerIn = new CountDownLatch(1);
		Future<ReleaseResult> writer = this.clients.background(() -> {
			LockHandle handle = writerLock.acquire(path, LockMode.WRITE);
			writerIn.countDown();
			return handle.release();
		});
		awaitQueued(writerClient, path, 3);
		reader1.release();
		// the writer watches reader2 (its predecessor); reader1's release did not let it in
		await().atMost(AWAIT).until(() -> lockNodes(writerClient, path).size() == 2);
		assertThat(writerIn.getCount()).isEqualTo(1);
		assertThat(writer).isNotDone();
		reader2.release();
		assertThat(writer.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	@Timeout(60)
	void shouldLetAReaderQueuedBehindAWaitingWriterWaitOnlyForWritersBeforeIt() throws Exception {
		String path = "rw/reader-behind-writer";
		String zkBasePath = "/" + NAMESPACE + basePath(path);
		CuratorFramework observer = this.clients.newClient();
		List<String> order = Collections.synchronizedList(new ArrayList<>());

		LockHandle reader1 = newLock().acquire(path, LockMode.READ);
		// a reader queued behind readers only gets in at once
		LockHandle reader2 = newLock().tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow();

		SharedLockByCurator writerLock = newLock();
		CountDownLatch writerMayRelease = new CountDownLatch(1);
		Future<ReleaseResult> writer = this.clients.background(() -> {
			LockHandle handle = writerLock.acquire(path, LockMode.WRITE);
			order.add("writer");
			writerMayRelease.await();
			order.add("writer released");
			return handle.release();
		});
		awaitQueued(observer, path, 3);
		String writerNode = zkBasePath + "/" + lockNodes(observer, path).get(2);

		// a reader queued after the waiting writer does not get in, though only readers hold
		SharedLockByCurator lateReaderLock = newLock();
		assertThat(lateReaderLock.tryAcquire(path, LockMode.READ, Duration.ZERO)).isEmpty();
		Future<ReleaseResult> lateReader = this.clients.background(() -> {
			LockHandle handle = lateReaderLock.acquire(path, LockMode.READ);
			order.add("late reader");
			return handle.release();
		});
		awaitQueued(observer, path, 4);
		// the late reader watches the writer, the last node before it that excludes readers
		await().atMost(AWAIT).until(() -> serverLockWatches(server).contains(writerNode));

		reader1.release();
		reader2.release();
		await().atMost(AWAIT).until(() -> order.contains("writer"));
		assertThat(order).containsExactly("writer");
		assertThat(lateReader).isNotDone();
		writerMayRelease.countDown();
		assertThat(writer.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lateReader.get(20, TimeUnit.SECONDS)).isEqualTo(ReleaseResult.RELEASED);
		assertThat(order).containsExactly("writer", "writer released", "late reader");
	}

	@Test
	@Timeout(30)
	void shouldMakeWriteAndExclusiveNodesExcludeEachOther() {
		String path = "rw/write-vs-exclusive";
		CuratorFramework client1 = this.clients.newClient();
		CuratorFramework client2 = this.clients.newClient();
		SharedLockByCurator shared = new SharedLockByCurator(client1, ROOT);
		ExclusiveLockByCurator exclusive = new ExclusiveLockByCurator(client2, ROOT);

		LockHandle write = shared.acquire(path, LockMode.WRITE);
		assertThat(exclusive.tryAcquire(path, LockMode.EXCLUSIVE, SHORT)).isEmpty();
		write.release();

		LockHandle excl = exclusive.acquire(path, LockMode.EXCLUSIVE);
		assertThat(shared.tryAcquire(path, LockMode.WRITE, SHORT)).isEmpty();
		assertThat(shared.tryAcquire(path, LockMode.READ, SHORT)).isEmpty();
		excl.release();
		assertThat(lockNodes(client1, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldLetAWriterDowngradeToReadOnTheSameNode() {
		String path = "rw/downgrade";
		CuratorFramework client = this.clients.newClient();
		SharedLockByCurator lock = new SharedLockByCurator(client, ROOT);
		SharedLockByCurator otherProcess = newLock();

		LockHandle write = lock.acquire(LockRequest.of(path, LockMode.WRITE).ownedBy(HoldOwner.THREAD));
		LockHandle read = lock.tryAcquire(LockRequest.of(path, LockMode.READ).ownedBy(HoldOwner.THREAD)
			.waitAtMost(Duration.ZERO)).orElseThrow();
		assertThat(read.fencingToken()).isEqualTo(write.fencingToken());
		assertThat(read.nodePath()).isEqualTo(write.nodePath());
		assertThat(read.mode()).as("the read rides on the write node").isEqualTo(LockMode.WRITE);
		assertThat(lockNodes(client, path)).hasSize(1);

		assertThat(write.release()).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(otherProcess.tryAcquire(path, LockMode.READ, SHORT)).isEmpty();
		assertThat(read.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
		otherProcess.tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow().release();
	}

	@Test
	@Timeout(30)
	void shouldRefuseToUpgradeAReadLockWithoutCreatingANode() {
		String path = "rw/upgrade";
		CuratorFramework client = this.clients.newClient();
		SharedLockByCurator lock = new SharedLockByCurator(client, ROOT);
		LockHandle read = lock.acquire(LockRequest.of(path, LockMode.READ).ownedBy(HoldOwner.THREAD));
		List<String> nodes = lockNodes(client, path);

		assertThatIllegalStateException().isThrownBy(() -> lock.tryAcquire(path, LockMode.WRITE, Duration.ZERO))
			.withMessageContaining("'" + path + "'")
			.withMessageContaining("READ")
			.withMessageContaining("WRITE");
		assertThatIllegalStateException().isThrownBy(() -> lock.acquire(path, LockMode.EXCLUSIVE))
			.withMessageContaining("'" + path + "'");
		assertThatIllegalStateException().isThrownBy(() -> lock.acquireWriteLock(path));
		assertThat(lockNodes(client, path)).isEqualTo(nodes);
		assertThat(read.isHeld()).isTrue();
		assertThat(read.release()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(lockNodes(client, path)).isEmpty();
	}

	@Test
	@Timeout(30)
	void shouldTakeAndReleaseThreadBoundReadAndWriteLocks() {
		String path = "rw/thread-bound";
		CuratorFramework client = this.clients.newClient();
		SharedLockByCurator lock = new SharedLockByCurator(client, ROOT);
		SharedLockByCurator other = newLock();

		lock.acquireWriteLock(path);
		assertThat(lockNodes(client, path)).singleElement().asString().contains("__WRIT__");
		assertThat(other.tryAcquire(path, LockMode.READ, Duration.ZERO)).isEmpty();
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.RELEASED);

		lock.acquireReadLock(path);
		lock.acquireDistributedLock(path);
		assertThat(lockNodes(client, path)).singleElement().asString().contains("__READ__");
		LockHandle otherReader = other.tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow();
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.STILL_HELD);
		assertThat(lock.releaseDistributedLock(path)).isEqualTo(ReleaseResult.RELEASED);
		otherReader.release();
		assertThat(lockNodes(client, path)).isEmpty();
	}

}
