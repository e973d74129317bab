package io.zklock.lock;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.zklock.lock.internal.LocalHandoff;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;

/**
 * zklock's locks as Curator {@link InterProcessLock}s, for Curator's own lock tests
 * ({@code makeLock(CuratorFramework)}): one engine per Curator client, as an application has one
 * {@link LockEngine} per client, and a fresh view
 * ({@link ILockByCurator#asInterProcessLock}) per call, as Curator's tests make a fresh
 * {@code InterProcessMutex} per call. Two views of one client are two threads' locks of one
 * process: they exclude each other across threads, and a thread re-entering through either is
 * reentrant. Closes every engine it made. Thread-safe: Curator's tests make locks from several
 * threads at once.
 */
final class CuratorTestLocks implements AutoCloseable {

	private final String rootPath;

	private final LocalHandoff localHandoff;

	private final Map<CuratorFramework, ExclusiveLockByCurator> locksByClient = new IdentityHashMap<>();

	private final List<LockEngine> engines = new ArrayList<>();

	/**
	 * @param rootPath the lock root, Curator's {@code LOCK_BASE_PATH} ({@code /locks})
	 * @param localHandoff the engines' local-handoff setting
	 */
	CuratorTestLocks(String rootPath, LocalHandoff localHandoff) {
		this.rootPath = rootPath;
		this.localHandoff = localHandoff;
	}

	/**
	 * zklock's {@link LockMode#EXCLUSIVE} lock on {@code lockPath} under the root, through the
	 * client's engine (made on first use).
	 */
	synchronized InterProcessLock exclusive(CuratorFramework client, String lockPath) {
		return this.locksByClient.computeIfAbsent(client, (newClient) -> {
			LockEngine engine = ZkTestSupport.engine(newClient, this.rootPath, this.localHandoff);
			this.engines.add(engine);
			return new ExclusiveLockByCurator(engine);
		}).asInterProcessLock(lockPath, LockMode.EXCLUSIVE);
	}

	/** Closes the engines made so far; Curator's tests have closed their clients by then. */
	@Override
	public synchronized void close() {
		this.engines.forEach(LockEngine::close);
		this.engines.clear();
		this.locksByClient.clear();
	}

}
