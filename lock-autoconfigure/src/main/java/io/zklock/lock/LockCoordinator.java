package io.zklock.lock;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.curator.framework.CuratorFramework;

/**
 * The lock engine behind {@link ExclusiveLockByCurator} and {@link SharedLockByCurator}:
 * maps lock paths to ZooKeeper paths under the lock root, queues lock nodes, and keeps the
 * per-thread, per-lock-path reentrancy counts. Share one instance per client so that both
 * beans see the same holds.
 *
 * <p>
 * Thread-safe.
 */
public final class LockCoordinator {

	private final CuratorFramework client;

	private final String rootPath;

	private final boolean namespaced;

	private final LockNodeQueue queue;

	private final ConcurrentMap<HoldKey, LockHold> holds = new ConcurrentHashMap<>();

	private final ConcurrentMap<HoldKey, Deque<LockHandle>> threadBoundHandles = new ConcurrentHashMap<>();

	/**
	 * Creates a coordinator whose lock nodes carry no data.
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public LockCoordinator(CuratorFramework client, String rootPath) {
		this(client, rootPath, new byte[0]);
	}

	/**
	 * Creates a coordinator.
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @param nodeData the bytes every lock node carries, for example an instance id; never
	 * {@code null}
	 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
	 */
	public LockCoordinator(CuratorFramework client, String rootPath, byte[] nodeData) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		if (nodeData == null) {
			throw new IllegalArgumentException("'nodeData' must not be null; pass an empty array for none");
		}
		this.client = client;
		String namespace = client.getNamespace();
		this.namespaced = namespace != null && !namespace.isEmpty();
		this.rootPath = LockPaths.validateRoot(rootPath, this.namespaced);
		this.queue = new LockNodeQueue(client, nodeData);
	}

	/**
	 * The Curator client the locks use.
	 * @return the client
	 */
	public CuratorFramework getClient() {
		return this.client;
	}

	/**
	 * The lock root that lock paths are relative to.
	 * @return the lock root, such as {@code "/locks"}
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Acquires a lock, waiting at most {@code wait}.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @param wait how long to wait; {@link Duration#ZERO} tries once; {@code null} waits
	 * without limit
	 * @return the handle, or empty if the wait ran out (no lock node is then left behind)
	 * @throws IllegalArgumentException if the lock path or the wait is invalid
	 * @throws IllegalStateException if the current thread holds a read lock on the path and
	 * asks for a write or exclusive lock (that upgrade would wait for itself forever)
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again) or
	 * if ZooKeeper fails
	 */
	public Optional<LockHandle> tryAcquire(String lockPath, LockMode mode, Duration wait) {
		if (mode == null) {
			throw new IllegalArgumentException("Lock mode must not be null for lock path '" + lockPath
					+ "'; use EXCLUSIVE, READ or WRITE");
		}
		if (wait != null && wait.isNegative()) {
			throw new IllegalArgumentException(
					"Wait " + wait + " for lock path '" + lockPath + "' is negative; use Duration.ZERO to try once");
		}
		String relative = LockPaths.normalize(lockPath, this.rootPath);
		String basePath = LockPaths.toZooKeeperPath(relative, this.rootPath, this.namespaced);
		HoldKey key = new HoldKey(Thread.currentThread(), relative);
		LockHold existing = this.holds.get(key);
		if (existing != null) {
			if (!existing.mode().covers(mode)) {
				throw new IllegalStateException("Thread '" + key.thread().getName() + "' holds a " + existing.mode()
						+ " lock on '" + relative + "' and asked for " + mode
						+ ": upgrading would wait for its own lock forever; release the " + existing.mode()
						+ " lock first, or take the " + mode + " lock from the start");
			}
			if (existing.enter()) {
				return Optional.of(new HoldHandle(this, existing));
			}
		}
		LockNodeQueue.HeldNode node;
		try {
			node = this.queue.acquire(basePath, mode, (wait != null) ? Deadline.after(wait) : Deadline.never());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(relative,
					"Interrupted while waiting for the " + mode + " lock on '" + relative + "'", ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(relative, "Could not acquire the " + mode + " lock on '" + relative
					+ "' (ZooKeeper path " + basePath + "): " + ex, ex);
		}
		if (node == null) {
			return Optional.empty();
		}
		LockHold hold = new LockHold(relative, mode, node, key.thread());
		this.holds.put(key, hold);
		return Optional.of(new HoldHandle(this, hold));
	}

	/**
	 * Whether the current thread holds a lock on the path, in any mode.
	 * @param lockPath the lock path
	 * @return {@code true} if held by this thread
	 */
	public boolean isHeldByCurrentThread(String lockPath) {
		LockHold hold = this.holds.get(new HoldKey(Thread.currentThread(), LockPaths.normalize(lockPath, this.rootPath)));
		return hold != null && !hold.isReleased();
	}

	/** Keeps a handle for {@link #releaseThreadBound(String)} on the current thread. */
	void bindToThread(LockHandle handle) {
		this.threadBoundHandles.computeIfAbsent(new HoldKey(Thread.currentThread(), handle.lockPath()),
				(k) -> new ArrayDeque<>()).push(handle);
	}

	/**
	 * Releases the most recent handle bound to the current thread for the path.
	 * @throws IllegalMonitorStateException if the current thread has none
	 */
	ReleaseResult releaseThreadBound(String lockPath) {
		String relative = LockPaths.normalize(lockPath, this.rootPath);
		HoldKey key = new HoldKey(Thread.currentThread(), relative);
		Deque<LockHandle> handles = this.threadBoundHandles.get(key);
		LockHandle handle = (handles != null) ? handles.poll() : null;
		if (handle == null) {
			throw new IllegalMonitorStateException("Thread '" + key.thread().getName() + "' holds no lock on '"
					+ relative + "' taken with acquireDistributedLock; acquire it first on this thread, "
					+ "or release the LockHandle you got from acquire/tryAcquire");
		}
		if (handles.isEmpty()) {
			this.threadBoundHandles.remove(key, handles);
		}
		return handle.release();
	}

	ReleaseResult release(LockHold hold) {
		if (!hold.exit()) {
			return ReleaseResult.STILL_HELD;
		}
		this.holds.remove(new HoldKey(hold.owner(), hold.lockPath()), hold);
		return this.queue.delete(hold.node().nodePath());
	}

	private record HoldKey(Thread thread, String lockPath) {
	}

}
