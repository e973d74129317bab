package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.zklock.lock.ZkTestSupport.ROOT;
import static io.zklock.lock.ZkTestSupport.awaitQueued;
import static io.zklock.lock.ZkTestSupport.basePath;
import static io.zklock.lock.ZkTestSupport.lockNodes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * zklock and plain Curator recipes on the same lock path (same namespace) exclude each other:
 * {@link InterProcessMutex} against EXCLUSIVE, {@link InterProcessReadWriteLock} against
 * READ/WRITE, in both directions, also along queues where zklock's releases hand the lock on
 * without a listing.
 */
@Tag("slow")
class CuratorInteropTests extends ZkServerTest {

	private static final Duration SHORT = Duration.ofMillis(200);

	/** Curator's locks are released only by the thread that acquired them: one per recipe user. */
	private final List<ExecutorService> curatorThreads = new ArrayList<>();

	@Override
	@AfterEach
	void closeClients() {
		this.curatorThreads.forEach(ExecutorService::shutdownNow);
		super.closeClients();
	}

	private CuratorThread curatorThread() {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		this.curatorThreads.add(executor);
		return new CuratorThread(executor);
	}

	@Test
	@Timeout(60)
	void shouldExcludeACuratorMutexWhileZklockHoldsAndHandOver() throws Exception {
		String path = "interop/zklock-first";
		CuratorFramework zkClient = this.clients.newClient();
		ExclusiveLockByCurator zklock = new ExclusiveLockByCurator(zkClient, ROOT);
		InterProcessMutex mutex = new InterProcessMutex(this.clients.newClient(), basePath(path));
		CuratorThread curator = curatorThread();

		LockHandle held = zklock.acquire(path, LockMode.EXCLUSIVE);
		assertThat(curator.call(() -> mutex.acquire(200, TimeUnit.MILLISECONDS))).isFalse();
		Future<Boolean> waiting = curator.submit(() -> mutex.acquire(20, TimeUnit.SECONDS));
		awaitQueued(zkClient, path, 2);
		assertThat(waiting).isNotDone();
		held.release();
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isTrue();
		curator.call(() -> {
			mutex.release();
			return null;
		});
		assertThat(lockNodes(zkClient, path)).isEmpty();
	}

	@Test
	@Timeout(60)
	void shouldExcludeZklockWhileACuratorMutexHoldsAndHandOver() throws Exception {
		String path = "interop/curator-first";
		CuratorFramework zkClient = this.clients.newClient();
		ExclusiveLockByCurator zklock = new ExclusiveLockByCurator(zkClient, ROOT);
		InterProcessMutex mutex = new InterProcessMutex(this.clients.newClient(), basePath(path));
		CuratorThread curator = curatorThread();

		assertThat(curator.call(() -> mutex.acquire(5, TimeUnit.SECONDS))).isTrue();
		assertThat(lockNodes(zkClient, path)).singleElement().asString().matches("_c_.*-lock-\\d{10}");
		assertThat(zklock.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)).isEmpty();
		assertThat(zklock.tryAcquire(path, LockMode.EXCLUSIVE, SHORT)).isEmpty();
		Future<Long> waiting = this.clients.background(() -> {
			try (LockHandle handle = zklock.acquire(path, LockMode.EXCLUSIVE)) {
				return handle.fencingToken();
			}
		});
		awaitQueued(zkClient, path, 2);
		assertThat(waiting).isNotDone();
		curator.call(() -> {
			mutex.release();
			return null;
		});
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isPositive();
		assertThat(lockNodes(zkClient, path)).isEmpty();
	}

	@Test
	@Timeout(60)
	void shouldShareReadLocksWithCuratorAndExcludeItsWriter() throws Exception {
		String path = "interop/rw-readers";
		CuratorFramework zkClient = this.clients.newClient();
		SharedLockByCurator zklock = new SharedLockByCurator(zkClient, ROOT);
		InterProcessReadWriteLock curatorRw = new InterProcessReadWriteLock(this.clients.newClient(),
				basePath(path));
		CuratorThread curatorReader = curatorThread();
		CuratorThread curatorWriter = curatorThread();

		// Curator reader + zklock reader hold together
		assertThat(curatorReader.call(() -> curatorRw.readLock().acquire(5, TimeUnit.SECONDS))).isTrue();
		LockHandle zkReader = zklock.tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow();
		// neither writer gets in
		SharedLockByCurator zkWriterLock = new SharedLockByCurator(this.clients.newClient(), ROOT);
		assertThat(zkWriterLock.tryAcquire(path, LockMode.WRITE, SHORT)).isEmpty();
		assertThat(curatorWriter.call(() -> curatorRw.writeLock().acquire(200, TimeUnit.MILLISECONDS))).isFalse();

		// a Curator writer queues; a zklock reader after it must wait for it
		Future<Boolean> writer = curatorWriter.submit(() -> curatorRw.writeLock().acquire(20, TimeUnit.SECONDS));
		awaitQueued(zkClient, path, 3);
		SharedLockByCurator lateReaderLock = new SharedLockByCurator(this.clients.newClient(), ROOT);
		assertThat(lateReaderLock.tryAcquire(path, LockMode.READ, SHORT)).isEmpty();

		zkReader.release();
		assertThat(writer).isNotDone();
		curatorReader.call(() -> {
			curatorRw.readLock().release();
			return null;
		});
		assertThat(writer.get(20, TimeUnit.SECONDS)).isTrue();
		assertThat(lateReaderLock.tryAcquire(path, LockMode.READ, Duration.ZERO)).isEmpty();
		curatorWriter.call(() -> {
			curatorRw.writeLock().release();
			return null;
		});
		lateReaderLock.tryAcquire(path, LockMode.READ, Duration.ofSeconds(5)).orElseThrow().release();
		assertThat(lockNodes(zkClient, path)).isEmpty();
	}

	@Test
	@Timeout(60)
	void shouldKeepCuratorReadersAndWritersOutWhileZklockWrites() throws Exception {
		String path = "interop/rw-zklock-writer";
		CuratorFramework zkClient = this.clients.newClient();
		SharedLockByCurator zklock = new SharedLockByCurator(zkClient, ROOT);
		InterProcessReadWriteLock curatorRw = new InterProcessReadWriteLock(this.clients.newClient(),
				basePath(path));
		CuratorThread curator = curatorThread();

		LockHandle zkWriter = zklock.acquire(path, LockMode.WRITE);
		assertThat(curator.call(() -> curatorRw.readLock().acquire(200, TimeUnit.MILLISECONDS))).isFalse();
		assertThat(curator.call(() -> curatorRw.writeLock().acquire(200, TimeUnit.MILLISECONDS))).isFalse();
		Future<Boolean> reader = curator.submit(() -> curatorRw.readLock().acquire(20, TimeUnit.SECONDS));
		awaitQueued(zkClient, path, 2);
		assertThat(reader).isNotDone();
		zkWriter.release();
		assertThat(reader.get(20, TimeUnit.SECONDS)).isTrue();
		// Curator reader holds: a zklock reader shares, a zklock writer waits
		zklock.tryAcquire(path, LockMode.READ, Duration.ZERO).orElseThrow().release();
		assertThat(zklock.tryAcquire(path, LockMode.WRITE, SHORT)).isEmpty();
		curator.call(() -> {
			curatorRw.readLock().release();
			return null;
		});
		zklock.tryAcquire(path, LockMode.WRITE, Duration.ZERO).orElseThrow().release();
		assertThat(lockNodes(zkClient, path)).isEmpty();
	}

	@Test
	@Timeout(60)
	void shouldKeepZklockReadersAndWritersOutWhileCuratorWrites() throws Exception {
		String path = "interop/rw-curator-writer";
		CuratorFramework zkClient = this.clients.newClient();
		SharedLockByCurator zklock = new SharedLockByCurator(zkClient, ROOT);
		InterProcessReadWriteLock curatorRw = new InterProcessReadWriteLock(this.clients.newClient(),
				basePath(path));
		CuratorThread curator = curatorThread();

		assertThat(curator.call(() -> curatorRw.writeLock().acquire(5, TimeUnit.SECONDS))).isTrue();
		assertThat(lockNodes(zkClient, path)).singleElement().asString().matches("_c_.*__WRIT__\\d{10}");
		assertThat(zklock.tryAcquire(path, LockMode.READ, SHORT)).isEmpty();
		assertThat(zklock.tryAcquire(path, LockMode.WRITE, SHORT)).isEmpty();
		Future<LockMode> waiting = this.clients.background(() -> {
			try (LockHandle handle = zklock.acquire(path, LockMode.READ)) {
				return handle.mode();
			}
		});
		awaitQueued(zkClient, path, 2);
		assertThat(waiting).isNotDone();
		curator.call(() -> {
			curatorRw.writeLock().release();
			return null;
		});
		assertThat(waiting.get(20, TimeUnit.SECONDS)).isEqualTo(LockMode.READ);
		assertThat(lockNodes(zkClient, path)).isEmpty();
	}

	/**
	 * A queue that alternates zklock and Curator mutexes: a Curator waiter behind a zklock holder
	 * wakes on the data change of zklock's release (multi(setData, delete)) and lists; a zklock
	 * waiter behind a Curator holder sees a deletion without a data change and lists; a zklock
	 * waiter behind a zklock holder takes the handoff without a listing. Nobody passes a holder.
	 */
	@Test
	@Timeout(60)
	void shouldHandOverAlongAQueueOfZklockAndCuratorMutexes() throws Exception {
		String path = "interop/mixed-queue";
		CuratorFramework observer = this.clients.newClient();
		LockHandle first = new ExclusiveLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.EXCLUSIVE);
		InterProcessMutex curatorMutex = new InterProcessMutex(this.clients.newClient(), basePath(path));
		CuratorThread curator = curatorThread();
		Future<Boolean> second = curator.submit(() -> curatorMutex.acquire(20, TimeUnit.SECONDS));
		awaitQueued(observer, path, 2);
		ExclusiveLockByCurator thirdLock = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		Future<LockHandle> third = this.clients.background(() -> thirdLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 3);
		ExclusiveLockByCurator fourthLock = new ExclusiveLockByCurator(this.clients.newClient(), ROOT);
		Future<LockHandle> fourth = this.clients.background(() -> fourthLock.acquire(path, LockMode.EXCLUSIVE));
		awaitQueued(observer, path, 4);
		InterProcessMutex lastMutex = new InterProcessMutex(this.clients.newClient(), basePath(path));
		CuratorThread lastCurator = curatorThread();
		Future<Boolean> last = lastCurator.submit(() -> lastMutex.acquire(20, TimeUnit.SECONDS));
		awaitQueued(observer, path, 5);

		first.release();
		assertThat(second.get(20, TimeUnit.SECONDS)).as("Curator's waiter behind zklock's release").isTrue();
		assertThat(third).isNotDone();
		curator.call(() -> {
			curatorMutex.release();
			return null;
		});
		LockHandle thirdHeld = third.get(20, TimeUnit.SECONDS);
		assertThat(fourth).isNotDone();
		thirdHeld.release();
		LockHandle fourthHeld = fourth.get(20, TimeUnit.SECONDS);
		assertThat(fourthHeld.fencingToken()).isGreaterThan(thirdHeld.fencingToken());
		assertThat(last).isNotDone();
		fourthHeld.release();
		assertThat(last.get(20, TimeUnit.SECONDS)).as("Curator's waiter behind zklock's release").isTrue();
		lastCurator.call(() -> {
			lastMutex.release();
			return null;
		});
		assertThat(lockNodes(observer, path)).isEmpty();
	}

	/**
	 * zklock's write release wakes a Curator reader and a zklock reader queued behind it (the
	 * latter without a listing); a Curator writer after the readers waits for both of them,
	 * although the zklock reader writes its node once for its token.
	 */
	@Test
	@Timeout(60)
	void shouldHandAZklockWriteLockToCuratorAndZklockReadersAndKeepCuratorsWriterWaiting() throws Exception {
		String path = "interop/rw-handoff";
		CuratorFramework observer = this.clients.newClient();
		LockHandle writer = new SharedLockByCurator(this.clients.newClient(), ROOT).acquire(path, LockMode.WRITE);
		InterProcessReadWriteLock curatorRw = new InterProcessReadWriteLock(this.clients.newClient(),
				basePath(path));
		CuratorThread curatorReader = curatorThread();
		CuratorThread curatorWriter = curatorThread();
		Future<Boolean> curatorRead = curatorReader.submit(() -> curatorRw.readLock().acquire(20, TimeUnit.SECONDS));
		awaitQueued(observer, path, 2);
		SharedLockByCurator readerLock = new SharedLockByCurator(this.clients.newClient(), ROOT);
		Future<LockHandle> zkRead = this.clients.background(() -> readerLock.acquire(path, LockMode.READ));
		awaitQueued(observer, path, 3);
		Future<Boolean> curatorWrite = curatorWriter.submit(() -> curatorRw.writeLock().acquire(20, TimeUnit.SECONDS));
		awaitQueued(observer, path, 4);

		writer.release();
		assertThat(curatorRead.get(20, TimeUnit.SECONDS)).isTrue();
		LockHandle zkReader = zkRead.get(20, TimeUnit.SECONDS);
		assertThat(zkReader.fencingToken()).isGreaterThan(writer.fencingToken());
		curatorReader.call(() -> {
			curatorRw.readLock().release();
			return null;
		});
		assertThat(curatorWrite).as("a zklock reader still holds").isNotDone();
		zkReader.release();
		assertThat(curatorWrite.get(20, TimeUnit.SECONDS)).isTrue();
		curatorWriter.call(() -> {
			curatorRw.writeLock().release();
			return null;
		});
		assertThat(lockNodes(observer, path)).isEmpty();
	}

	/** One thread that performs a Curator recipe's acquires and releases. */
	private record CuratorThread(ExecutorService executor) {

		<T> Future<T> submit(Callable<T> work) {
			return this.executor.submit(work);
		}

		<T> T call(Callable<T> work) throws Exception {
			return submit(work).get(30, TimeUnit.SECONDS);
		}

	}

}
