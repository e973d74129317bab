package io.zklock.lock;

import org.apache.curator.framework.CuratorFramework;

/**
 * The fair exclusive lock: one holder per lock path, waiters served in FIFO order, each
 * watching only its predecessor (no herd effect). Nodes are named like Curator's
 * {@code InterProcessMutex} nodes, so the two exclude each other on the same path.
 *
 * <p>
 * Its mode-less calls ({@link #acquireDistributedLock(String)},
 * {@link #tryAcquire(String, java.time.Duration)}) take {@link LockMode#EXCLUSIVE} locks;
 * the calls with a {@link LockMode} accept every mode. Thread-safe.
 */
public class ExclusiveLockByCurator extends AbstractLockByCurator {

	/**
	 * Creates the exclusive lock over a shared coordinator.
	 * @param coordinator the lock engine, shared with {@link SharedLockByCurator}
	 */
	public ExclusiveLockByCurator(LockCoordinator coordinator) {
		super(coordinator, LockMode.EXCLUSIVE);
	}

	/**
	 * Creates the exclusive lock with its own coordinator, for use without Spring.
	 * @param client a started Curator client
	 * @param rootPath the lock root, such as {@code "/locks"}
	 */
	public ExclusiveLockByCurator(CuratorFramework client, String rootPath) {
		this(new LockCoordinator(client, rootPath));
	}

}
