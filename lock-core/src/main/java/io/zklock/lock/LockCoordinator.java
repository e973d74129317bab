package io.zklock.lock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock engine behind {@link ExclusiveLockByCurator} and {@link SharedLockByCurator}:
 * maps lock paths to ZooKeeper paths under the lock root, queues lock nodes, and keeps the
 * per-thread, per-lock-path reentrancy counts. Share one instance per client so that both
 * beans see the same holds.
 *
 * <p>
 * Thread-safe.
 */
public final class LockCoordinator implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LockCoordinator.class);

	private final CuratorFramework client;

	private final String rootPath;

	private final boolean namespaced;

	private final LockNodeQueue queue;

	private final ConcurrentMap<HoldKey, LockHold> holds = new ConcurrentHashMap<>();

	private final ConcurrentMap<HoldKey, Deque<LockHandle>> threadBoundHandles = new ConcurrentHashMap<>();

	private final List<LockListener> listeners = new CopyOnWriteArrayList<>();

	private final ConnectionStateListener connectionStateListener = this::connectionStateChanged;

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
		this.namespaced = LockPaths.isNamespaced(client);
		this.rootPath = LockPaths.validateRoot(rootPath, this.namespaced);
		this.queue = new LockNodeQueue(client, nodeData);
		client.getConnectionStateListenable().addListener(this.connectionStateListener);
	}

	/**
	 * Stops following the client's connection state. Held locks stay as they are; release
	 * them before closing the client.
	 */
	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.connectionStateListener);
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
		return tryAcquire(lockPath, mode, wait, null);
	}

	/**
	 * Acquires a lock, waiting at most {@code wait}, under a declared lock name.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @param mode the lock mode
	 * @param wait how long to wait; {@link Duration#ZERO} tries once; {@code null} waits
	 * without limit
	 * @param lockName the lock's name for metrics and logs, a label of bounded cardinality
	 * such as {@code "orders"}; {@code null} uses the first segment of the lock path
	 * @return the handle, or empty if the wait ran out (no lock node is then left behind)
	 * @throws IllegalArgumentException if the lock path or the wait is invalid
	 * @throws IllegalStateException if the current thread holds a read lock on the path and
	 * asks for a write or exclusive lock
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if the current thread's earlier lock on the path is
	 * {@link LockState#IN_DOUBT} or {@link LockState#LOST} (release it first)
	 */
	public Optional<LockHandle> tryAcquire(String lockPath, LockMode mode, Duration wait, String lockName) {
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
			LockState state = existing.state();
			if (state == LockState.IN_DOUBT || state == LockState.LOST) {
				// re-entering would hand out a lock another process may hold by now
				throw new LockAcquisitionException(relative, "Thread '" + key.thread().getName() + "' holds the "
						+ existing.mode() + " lock on '" + relative + "' (fencing token "
						+ existing.node().fencingToken() + ") but it is " + state
						+ ": release that handle, then acquire the lock again");
			}
			if (existing.enter()) {
				return Optional.of(new HoldHandle(this, existing));
			}
		}
		String name = (lockName != null && !lockName.isBlank()) ? lockName : firstSegment(relative);
		long start = System.nanoTime();
		publish(LockEvent.Type.ACQUIRING, relative, name, mode, 0, Duration.ZERO, null, null);
		Deadline deadline = (wait != null) ? Deadline.after(wait) : Deadline.never();
		LockHold hold;
		try {
			hold = acquireNode(key, relative, name, mode, basePath, deadline);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			LockAcquisitionException failure = new LockAcquisitionException(relative,
					"Interrupted while waiting for the " + mode + " lock on '" + relative + "'", ex);
			publish(LockEvent.Type.FAILED, relative, name, mode, 0, since(start), null, failure);
			throw failure;
		}
		catch (Exception ex) {
			LockAcquisitionException failure = new LockAcquisitionException(relative, "Could not acquire the " + mode
					+ " lock on '" + relative + "' (ZooKeeper path " + basePath + "): " + ex, ex);
			publish(LockEvent.Type.FAILED, relative, name, mode, 0, since(start), null, failure);
			throw failure;
		}
		catch (Error ex) {
			publish(LockEvent.Type.FAILED, relative, name, mode, 0, since(start), null, ex);
			throw ex;
		}
		if (hold == null) {
			publish(LockEvent.Type.TIMED_OUT, relative, name, mode, 0, since(start), null, null);
			return Optional.empty();
		}
		publish(LockEvent.Type.ACQUIRED, relative, name, mode, hold.node().fencingToken(), since(start), null, null);
		return Optional.of(new HoldHandle(this, hold));
	}

	/**
	 * Queues a lock node and registers the hold. A connection-state change between the
	 * grant and the registration would reach no hold, so the registered hold is checked
	 * once more: granted under a session that has ended, it is dropped and the waiter queues
	 * again; granted while the connection is suspended, it starts in doubt.
	 * @return the hold, or {@code null} if the deadline passed
	 */
	private LockHold acquireNode(HoldKey key, String relative, String name, LockMode mode, String basePath,
			Deadline deadline) throws Exception {
		while (true) {
			LockNodeQueue.HeldNode node = this.queue.acquire(basePath, mode, deadline);
			if (node == null) {
				return null;
			}
			LockHold hold = new LockHold(relative, name, mode, node, key.thread());
			this.holds.put(key, hold);
			if (this.client.getZookeeperClient().getZooKeeper().getSessionId() == node.sessionId()) {
				if (!this.client.getZookeeperClient().isConnected()
						&& this.client.getConnectionStateErrorPolicy().isErrorState(ConnectionState.SUSPENDED)) {
					hold.degrade(LockState.IN_DOUBT);
				}
				return hold;
			}
			this.holds.remove(key, hold);
			this.queue.delete(node.nodePath());
			if (deadline.hasPassed()) {
				return null;
			}
		}
	}

	/**
	 * Acquires locks on several lock paths, all or nothing, under one deadline. The paths are
	 * acquired in one canonical order (sorted), so callers naming the same paths in different
	 * orders cannot deadlock each other.
	 * @param lockPaths the lock paths; duplicates count once
	 * @param mode the mode of every lock
	 * @param wait the longest wait for all of them together; {@code null} waits without limit
	 * @return the group, or empty if the wait ran out (locks taken so far are released)
	 * @throws IllegalArgumentException if a lock path is invalid or the collection empty
	 * @throws LockAcquisitionException if interrupted or if ZooKeeper fails (locks taken so
	 * far are released)
	 */
	public Optional<LockGroup> tryAcquireAll(Collection<String> lockPaths, LockMode mode, Duration wait) {
		if (lockPaths == null || lockPaths.isEmpty()) {
			throw new IllegalArgumentException("Lock paths " + lockPaths + " must name at least one lock path");
		}
		if (wait != null && wait.isNegative()) {
			throw new IllegalArgumentException(
					"Wait " + wait + " for lock paths " + lockPaths + " is negative; use Duration.ZERO to try once");
		}
		SortedSet<String> ordered = new TreeSet<>();
		for (String lockPath : lockPaths) {
			ordered.add(LockPaths.normalize(lockPath, this.rootPath));
		}
		Deadline deadline = (wait != null) ? Deadline.after(wait) : Deadline.never();
		List<LockHandle> acquired = new ArrayList<>(ordered.size());
		boolean complete = false;
		try {
			for (String lockPath : ordered) {
				Duration remaining = deadline.isInfinite() ? null
						: Duration.ofNanos(Math.max(0, deadline.remainingNanos()));
				Optional<LockHandle> lock = tryAcquire(lockPath, mode, remaining);
				if (lock.isEmpty()) {
					return Optional.empty();
				}
				acquired.add(lock.get());
			}
			complete = true;
			return Optional.of(new LockGroup(acquired));
		}
		finally {
			if (!complete) {
				new LockGroup(acquired).release();
			}
		}
	}

	/**
	 * Registers a listener for the events of all locks of this coordinator.
	 * @param listener the listener
	 */
	public void addListener(LockListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("'listener' must not be null");
		}
		this.listeners.add(listener);
	}

	/**
	 * The lock nodes this process holds now, oldest first.
	 * @return a snapshot, one entry per lock node (reentrant holds are counted in it)
	 */
	public List<HeldLock> getHeldLocks() {
		List<HeldLock> held = new ArrayList<>();
		for (LockHold hold : this.holds.values()) {
			if (!hold.isReleased()) {
				held.add(hold.snapshot());
			}
		}
		held.sort(Comparator.comparing(HeldLock::acquiredAt));
		return held;
	}

	/**
	 * Reads the queue of a lock path from ZooKeeper: holders first, then waiters, in the
	 * order they will be served, of every process.
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @return the lock nodes, empty if nobody holds or waits
	 * @throws IllegalArgumentException if the lock path is invalid
	 * @throws Exception if ZooKeeper fails
	 */
	public List<QueuedNode> inspectQueue(String lockPath) throws Exception {
		String basePath = LockPaths.toZooKeeperPath(lockPath, this.rootPath, this.namespaced);
		List<String> children;
		try {
			children = this.client.getChildren().forPath(basePath);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		List<LockNodeName> queue = LockNodeName.sortedLockNodes(children);
		List<QueuedNode> nodes = new ArrayList<>(queue.size());
		for (int i = 0; i < queue.size(); i++) {
			LockNodeName name = queue.get(i);
			Stat stat = new Stat();
			byte[] data;
			try {
				data = this.client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(basePath, name.name()));
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			nodes.add(new QueuedNode(name.name(), name.mode(), LockNodeName.blocker(queue, i) == null,
					stat.getCzxid(), Instant.ofEpochMilli(stat.getCtime()), stat.getEphemeralOwner(),
					(data != null) ? new String(data, StandardCharsets.UTF_8) : ""));
		}
		return nodes;
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
		boolean lost = hold.state() == LockState.LOST;
		if (!hold.exit()) {
			return ReleaseResult.STILL_HELD;
		}
		this.holds.remove(new HoldKey(hold.owner(), hold.lockPath()), hold);
		ReleaseResult result = this.queue.delete(hold.node().nodePath());
		if (lost && result == ReleaseResult.RELEASED) {
			// the node outlived the loss (say, ownership could not be confirmed): still a lost lock
			result = ReleaseResult.LOST;
		}
		publish(LockEvent.Type.RELEASED, hold.lockPath(), hold.lockName(), hold.mode(), hold.node().fencingToken(),
				hold.heldFor(), result, null);
		return result;
	}

	private void connectionStateChanged(CuratorFramework client, ConnectionState state) {
		if (state == ConnectionState.LOST) {
			this.holds.values().forEach((hold) -> degrade(hold, LockState.LOST));
		}
		else if (client.getConnectionStateErrorPolicy().isErrorState(state)) {
			this.holds.values().forEach((hold) -> degrade(hold, LockState.IN_DOUBT));
		}
		else if (state.isConnected() && !this.holds.isEmpty()) {
			List<LockHold> toConfirm = new ArrayList<>(this.holds.values());
			client.runSafe(() -> toConfirm.forEach(this::confirmOwnership));
		}
	}

	/**
	 * After a reconnect: a hold in doubt is held again only if the session is unchanged and
	 * a quorum operation (a multi with a check of the lock node, which the leader orders
	 * after every earlier write) finds the node, owned by the session. A hold of an older
	 * session is lost.
	 */
	private void confirmOwnership(LockHold hold) {
		LockState state = hold.state();
		if (state == LockState.LOST || state == LockState.RELEASED) {
			return;
		}
		String nodePath = hold.node().nodePath();
		try {
			long sessionId = this.client.getZookeeperClient().getZooKeeper().getSessionId();
			if (sessionId != hold.node().sessionId()) {
				degrade(hold, LockState.LOST);
				return;
			}
			if (state != LockState.IN_DOUBT) {
				return;
			}
			this.client.transaction().forOperations(this.client.transactionOp().check().forPath(nodePath));
			Stat stat = this.client.checkExists().forPath(nodePath);
			if (stat != null && stat.getEphemeralOwner() == sessionId) {
				hold.confirm();
			}
			else {
				degrade(hold, LockState.LOST);
			}
		}
		catch (KeeperException.NoNodeException | KeeperException.SessionExpiredException ex) {
			degrade(hold, LockState.LOST);
		}
		catch (Exception ex) {
			// still disconnected: the hold stays in doubt until the next reconnect or LOST
			logger.debug("Could not confirm the lock on '" + hold.lockPath() + "' yet", ex);
		}
	}

	private void degrade(LockHold hold, LockState next) {
		List<Runnable> callbacks = hold.degrade(next);
		if (callbacks == null) {
			return;
		}
		for (Runnable callback : callbacks) {
			try {
				callback.run();
			}
			catch (RuntimeException ex) {
				logger.warn("Lock-loss listener of '" + hold.lockPath() + "' failed", ex);
			}
		}
		if (next == LockState.LOST) {
			logger.warn("Lost the " + hold.mode() + " lock on '" + hold.lockPath() + "' (fencing token "
					+ hold.node().fencingToken() + ")");
			publish(LockEvent.Type.LOST, hold.lockPath(), hold.lockName(), hold.mode(), hold.node().fencingToken(),
					hold.heldFor(), null, null);
		}
	}

	/**
	 * Reports a skipped annotated call to the listeners.
	 * @param lockPath the lock path that was busy
	 * @param lockName the lock's name for metrics
	 * @param mode the requested mode
	 * @param waited how long the call waited before it was skipped
	 */
	public void reportSkipped(String lockPath, String lockName, LockMode mode, Duration waited) {
		publish(LockEvent.Type.SKIPPED, lockPath, lockName, mode, 0, waited, null, null);
	}

	private void publish(LockEvent.Type type, String lockPath, String lockName, LockMode mode, long token,
			Duration duration, ReleaseResult result, Throwable error) {
		if (this.listeners.isEmpty()) {
			return;
		}
		LockEvent event = new LockEvent(type, lockPath, lockName, mode, token, duration, result, error);
		for (LockListener listener : this.listeners) {
			try {
				listener.onEvent(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock listener " + listener + " failed on " + type + " of '" + lockPath + "'", ex);
			}
		}
	}

	private static Duration since(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos);
	}

	private static String firstSegment(String relativePath) {
		int slash = relativePath.indexOf('/');
		return (slash < 0) ? relativePath : relativePath.substring(0, slash);
	}

	private record HoldKey(Thread thread, String lockPath) {
	}

}
