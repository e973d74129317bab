package io.zklock.lock;

import org.apache.curator.framework.CuratorFramework;

/**
 * The fair exclusive lock: one holder per lock path, waiters served in FIFO order, each
 * watching only its predecessor (no herd effect). Nodes are named like Curator's
 * {@code InterProcessMutex} nodes, so the two exclude each other on the same path.
 *
 * <pre class="code">
 * CuratorFramework client = CuratorFrameworkFactory.newClient("zk1:2181", new ExponentialBackoffRetry(100, 3));
 * client.start();
 * ILockByCurator locks = new ExclusiveLockByCurator(client, "/locks");
 * try (LockHandle lock = locks.acquire("orders/42", LockMode.EXCLUSIVE)) {
 *     write(order, lock.fencingToken());
 * }
 * </pre>
 *
 * <p>
 * Its mode-less calls ({@link #acquireDistributedLock(String)},
 * {@link #tryAcquire(String, java.time.Duration)}) take {@link LockMode#EXCLUSIVE} locks;
 * the calls with a {@link LockMode} accept every mode. Thread-safe.
 */
public class ExclusiveLockByCurator extends AbstractLockByCurator {

	/**
	 * Creates the exclusive lock over a shared engine.
	 * @param engine the lock engine, shared with {@link SharedLockByCurator}
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	public ExclusiveLockByCurator(LockEngine engine) {
		super(engine);
	}

	/**
	 * Creates the exclusive lock with its own {@link LockEngine} over {@code client}, for use
	 * without Spring; to share one engine between the beans (so that they see each other's holds)
	 * or to close it, create it yourself and use {@link #ExclusiveLockByCurator(LockEngine)}.
	 * @param client a started Curator client
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public ExclusiveLockByCurator(CuratorFramework client, String rootPath) {
		this(new LockEngine(client, rootPath));
	}

}
