package io.zklock.lock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * The lock engine behind {@link ExclusiveLockByCurator} and {@link SharedLockByCurator}: it
 * acquires and releases lock nodes and tells {@link LockListener}s. Its parts, one job each:
 * the {@link LockRoot} resolves lock paths, the hold registry keeps holds and thread-owned
 * reentrancy, the session guard follows the connection state (doubt, loss, confirmation),
 * and the lock-node queue speaks the ZooKeeper protocol. Share one instance per client so
 * that both beans, and the semaphores, see the same holds.
 *
 * <p>
 * Thread-safe.
 */
public final class LockCoordinator implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LockCoordinator.class);

	private final CuratorFramework client;

	private final LockRoot root;

	private final LockListeners listeners = new LockListeners();

	private final SessionGuard guard;

	private final HoldRegistry holds;

	private final LockNodeQueue queue;

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
		if (nodeData == null) {
			throw new IllegalArgumentException("'nodeData' must not be null; pass an empty array for none");
		}
		this.root = new LockRoot(client, rootPath);
		this.client = client;
		this.guard = new SessionGuard(client, this::reportLost);
		this.holds = new HoldRegistry(this.guard);
		this.queue = new LockNodeQueue(client, nodeData, this.guard);
	}

	/**
	 * Stops following the client's connection state. Held locks stay as they are; release
	 * them before closing the client.
	 */
	@Override
	public void close() {
		this.guard.close();
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
	 * @return the lock root
	 */
	public LockRoot getRoot() {
		return this.root;
	}

	/**
	 * Registers a listener for the events of all locks of this coordinator.
	 * @param listener the listener
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	public void addListener(LockListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * The lock nodes this coordinator holds now, oldest first.
	 * @return a snapshot, one entry per lock node (reentrant holds are counted in it)
	 */
	public List<HeldLock> getHeldLocks() {
		return this.holds.snapshot();
	}

	/**
	 * Acquires a lock as the request says; see {@link ILockByCurator#tryAcquire(LockRequest)}.
	 * @param request the lock path, mode, wait, owner and name
	 * @return the handle, or empty if the wait ran out (no lock node is then left behind)
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws IllegalStateException if the current thread would wait for its own
	 * thread-owned hold
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if the current thread's thread-owned hold is in doubt or lost
	 */
	public Optional<LockHandle> acquire(LockRequest request) {
		String lockPath = this.root.relative(request.path());
		String basePath = this.root.zooKeeperPath(lockPath);
		LockTarget target = new LockTarget(lockPath, request.lockName().orElseGet(() -> firstSegment(lockPath)),
				request.mode());
		LockHold own = this.holds.threadHold(lockPath);
		if (own != null) {
			LockHandle reentered = Reentry.enter(this, own, request);
			if (reentered != null) {
				return Optional.of(reentered);
			}
		}
		long start = System.nanoTime();
		this.listeners.acquiring(target);
		Deadline deadline = request.maxWait().map(Deadline::after).orElse(Deadline.never());
		LockHold hold;
		try {
			hold = queueFor(target, basePath, deadline, request);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failed(target, start, new LockAcquisitionException(lockPath,
					"Interrupted while waiting for the " + target.mode() + " lock on '" + lockPath + "'", ex));
		}
		catch (Exception ex) {
			throw failed(target, start, new LockAcquisitionException(lockPath, "Could not acquire the "
					+ target.mode() + " lock on '" + lockPath + "' (ZooKeeper path " + basePath + "): " + ex, ex));
		}
		catch (Error ex) {
			this.listeners.failed(target, since(start), ex);
			throw ex;
		}
		if (hold == null) {
			this.listeners.timeout(target, since(start));
			return Optional.empty();
		}
		this.listeners.acquired(target, hold.fencingToken(), since(start));
		return Optional.of(new HoldHandle(this, hold));
	}

	/**
	 * Queues a lock node and registers the hold. A connection-state change between the grant
	 * and the registration reaches no hold, so the registration reads the connection epoch back:
	 * a grant under a session that has ended is given up and the waiter queues again; a grant
	 * across a disconnect starts in doubt.
	 * @return the hold, or {@code null} if the deadline passed
	 */
	private @Nullable LockHold queueFor(LockTarget target, String basePath, Deadline deadline, LockRequest request)
			throws Exception {
		while (true) {
			GrantedNode node = this.queue.acquire(basePath, target.mode(), deadline, request.isInterruptible());
			if (node == null) {
				return null;
			}
			LockHold hold = new LockHold(target, node, request.owner(), Thread.currentThread());
			if (this.holds.add(hold, node.decidedAt())) {
				return hold;
			}
			this.queue.deleteInBackground(node.nodePath());
			if (deadline.hasPassed()) {
				return null;
			}
		}
	}

	/**
	 * Releases one entry of a hold; the node goes with the last.
	 * @param detached whether the entry's handle was detached from the holder thread
	 */
	ReleaseResult release(LockHold hold, boolean detached) {
		boolean lost = hold.state() == LockState.LOST;
		LockHold.Exit exit = hold.exit(detached);
		if (exit == LockHold.Exit.LEFT_THREAD) {
			this.holds.leaveThread(hold);
		}
		if (exit != LockHold.Exit.LAST) {
			return ReleaseResult.STILL_HELD;
		}
		this.holds.remove(hold);
		ReleaseResult result = this.queue.delete(hold.nodePath());
		if (lost) {
			// lost before this release, whatever the delete found (the node may have outlived the
			// loss, or the delete still waits for a connection): the work under it may have overlapped
			result = ReleaseResult.LOST;
		}
		this.listeners.released(hold.target(), hold.fencingToken(), hold.heldFor(), result);
		return result;
	}

	/**
	 * Detaches one thread entry of a hold from its thread; the thread no longer owns the hold
	 * once none of its entries is left.
	 */
	void detach(LockHold hold) {
		if (hold.detach()) {
			this.holds.leaveThread(hold);
		}
	}

	/** The session guard, shared with the semaphores of this coordinator. */
	SessionGuard sessionGuard() {
		return this.guard;
	}

	private void reportLost(GuardedHold hold) {
		if (hold instanceof LockHold lock) {
			logger.warn("Lost the {} lock on '{}' (fencing token {})", lock.mode(), lock.lockPath(), lock.fencingToken());
			this.listeners.lost(lock.target(), lock.fencingToken(), lock.heldFor());
		}
		else {
			logger.warn("Lost {}", hold);
		}
	}

	private LockAcquisitionException failed(LockTarget target, long start, LockAcquisitionException failure) {
		this.listeners.failed(target, since(start), failure);
		return failure;
	}

	private static Duration since(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos);
	}

	private static String firstSegment(String lockPath) {
		int slash = lockPath.indexOf('/');
		return (slash < 0) ? lockPath : lockPath.substring(0, slash);
	}

}
