package io.zklock.lock;

import org.apache.curator.framework.CuratorFramework;

/**
 * The read/write lock: readers hold a lock path together, a writer alone. A reader waits
 * only for the last WRITE node before its own, a writer only for its immediate predecessor,
 * so one release wakes one writer or the run of readers behind it. Nodes are named like
 * Curator's {@code InterProcessReadWriteLock} nodes, so the two interoperate on one path.
 *
 * <p>
 * Its mode-less calls ({@link #acquireDistributedLock(String)},
 * {@link #tryAcquire(String, java.time.Duration)}) take {@link LockMode#READ} (shared)
 * locks; {@link #acquireWriteLock(String)} takes the write lock in the same thread-owned
 * style. Thread-safe.
 */
public class SharedLockByCurator extends AbstractLockByCurator {

	/**
	 * Creates the read/write lock over a shared engine.
	 * @param engine the lock engine, shared with {@link ExclusiveLockByCurator}
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	public SharedLockByCurator(LockEngine engine) {
		super(engine);
	}

	/**
	 * Creates the read/write lock with its own {@link LockEngine} over {@code client}, for use
	 * without Spring; to share one engine between the beans (so that they see each other's holds)
	 * or to close it, create it yourself and use {@link #SharedLockByCurator(LockEngine)}.
	 * @param client a started Curator client
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public SharedLockByCurator(CuratorFramework client, String rootPath) {
		this(new LockEngine(client, rootPath));
	}

	/**
	 * {@link LockMode#READ}: the mode-less calls take shared locks.
	 * @return {@link LockMode#READ}
	 */
	@Override
	public LockMode defaultMode() {
		return LockMode.READ;
	}

	/**
	 * Acquires the read lock on {@code path} for the current thread, waiting as long as it
	 * takes; same as {@link #acquireDistributedLock(String)}. Release it with
	 * {@link #releaseDistributedLock(String)}.
	 * @param path the lock path
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	public void acquireReadLock(String path) {
		ThreadBoundLocks.acquire(this, LockRequest.of(path, LockMode.READ));
	}

	/**
	 * Acquires the write lock on {@code path} for the current thread, waiting as long as it
	 * takes. Release it with {@link #releaseDistributedLock(String)}.
	 * @param path the lock path
	 * @throws IllegalStateException if the thread holds the read lock (upgrading would wait
	 * for itself)
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails
	 */
	public void acquireWriteLock(String path) {
		ThreadBoundLocks.acquire(this, LockRequest.of(path, LockMode.WRITE));
	}

}
