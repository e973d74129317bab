package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.zklock.internal.LockNodeData;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.internal.ClientLocks;
import io.zklock.lock.internal.LockRoot;
import io.zklock.lock.internal.WaitExplanation;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * zklock's lock engine for one Curator client: the one object behind
 * {@link ExclusiveLockByCurator}, {@link SharedLockByCurator} and {@link SemaphoreByCurator}. It
 * resolves lock paths against its lock root, queues and deletes lock nodes, keeps the holds and
 * their thread-owned reentrancy, follows the session (doubt, loss, confirmation) and tells
 * {@link LockListener}s. Share one engine per client, so that both beans, and the semaphores, see
 * the same holds; the auto-configuration makes it a bean. Applications inject
 * {@link ILockByCurator}, and need this type to share one engine without Spring, to register a
 * listener, or to stop granting at shutdown.
 *
 * <pre class="code">
 * LockEngine engine = new LockEngine(client, "/locks");
 * ILockByCurator exclusive = new ExclusiveLockByCurator(engine);
 * ILockByCurator shared = new SharedLockByCurator(engine);
 * </pre>
 *
 * It resolves paths and checks arguments, and hands each call to its machinery in
 * {@code io.zklock.lock.internal} (entered through {@code ClientLocks}; how the lock works:
 * docs/lock-protocol.md), no type of which appears in this API.
 *
 * <p>
 * Thread-safe.
 */
public final class LockEngine implements AutoCloseable {

	private final CuratorFramework client;

	private final LockRoot root;

	private final LocalHandoff localHandoff;

	private final ClientLocks locks;

	/** Why the current thread's last acquire through this engine returned empty, if it did. */
	private final ThreadLocal<LockRefusal> lastRefusal = new ThreadLocal<>();

	/**
	 * Creates an engine whose lock nodes say which host and process hold them
	 * ({@link LockNodeData#forThisProcess(String, String)}), with local handoff as
	 * {@link LocalHandoff#defaults()} says (off).
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the client is {@code null} or the lock root is not a
	 * valid ZooKeeper path
	 */
	public LockEngine(CuratorFramework client, String rootPath) {
		this(client, rootPath, LockNodeData.forThisProcess(null, null));
	}

	/**
	 * Creates an engine with local handoff as {@link LocalHandoff#defaults()} says (off).
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @param nodeData the bytes every lock node carries, such as
	 * {@link LockNodeData#forThisProcess(String, String)}; never {@code null}
	 * @throws IllegalArgumentException if the client is {@code null} or the lock root is not a
	 * valid ZooKeeper path
	 */
	public LockEngine(CuratorFramework client, String rootPath, byte[] nodeData) {
		this(client, rootPath, nodeData, LocalHandoff.defaults());
	}

	/**
	 * Creates an engine with a local-handoff setting: whether a held {@code EXCLUSIVE} or
	 * {@code WRITE} lock node is handed to this engine's next waiter for the same lock path
	 * instead of being deleted (lock cohorting), and the bounds of such a chain.
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @param nodeData the bytes every lock node carries, such as
	 * {@link LockNodeData#forThisProcess(String, String)}; never {@code null}
	 * @param localHandoff the local-handoff setting, such as {@link LocalHandoff#on()}
	 * @throws IllegalArgumentException if the client is {@code null}, the lock root is not a valid
	 * ZooKeeper path, or {@code nodeData} or {@code localHandoff} is {@code null}
	 */
	public LockEngine(CuratorFramework client, String rootPath, byte[] nodeData, LocalHandoff localHandoff) {
		if (nodeData == null) {
			throw new IllegalArgumentException("'nodeData' must not be null; pass an empty array for none");
		}
		if (localHandoff == null) {
			throw new IllegalArgumentException("'localHandoff' must not be null; pass LocalHandoff.off() for none");
		}
		this.root = new LockRoot(client, rootPath);
		this.client = client;
		this.localHandoff = localHandoff;
		this.locks = new ClientLocks(client, nodeData, localHandoff);
	}

	/**
	 * Acquires a lock as the request says; see {@link ILockByCurator#tryAcquire(LockRequest)},
	 * which delegates here.
	 * @param request the lock path, mode, wait, owner and name
	 * @return the handle, or empty if the wait ran out (its lock node is deleted in the background);
	 * then {@link #lastRefusal()} says why
	 * @throws IllegalArgumentException if the request is {@code null} or its lock path is invalid
	 * @throws IllegalStateException if the current thread would wait for its own thread-owned hold
	 * @throws LockDeadlockException if the request has no wait limit and would close a deadlock
	 * of this process that no thread on it can leave
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, if the current thread's thread-owned hold is in doubt or lost, or if this
	 * engine stopped granting ({@link #stopGranting(String)})
	 */
	public Optional<LockHandle> acquire(LockRequest request) {
		this.lastRefusal.remove();
		if (request == null) {
			throw new IllegalArgumentException("Lock request must not be null; build one with LockRequest.of(path, mode)");
		}
		String lockPath = this.root.relative(request.path());
		String basePath = this.root.zooKeeperPath(lockPath);
		Optional<LockHandle> handle = this.locks.acquire(request, lockPath, basePath);
		if (handle.isEmpty()) {
			WaitExplanation why = this.locks.explain(request, lockPath, basePath);
			this.lastRefusal.set(new LockRefusal(lockPath, request.mode(), why.reason(),
					RequestTimeouts.message(request, why.disconnectedSince(), why.waitedFor())));
		}
		return handle;
	}

	/**
	 * Why the current thread's most recent acquire through this engine returned empty: the
	 * refusal of that acquire, if it returned empty; empty if it returned a lock or threw, or if
	 * the thread made none. Each acquire of the thread ({@link #acquire(LockRequest)}, and every
	 * call of {@link ILockByCurator} over this engine that acquires a lock) replaces it, so read it
	 * right after the acquire that returned empty, on the same thread. Thread-confined: other
	 * threads' acquires never change it, and a virtual thread has its own like any other.
	 * @return the refusal, or empty
	 * @see ILockByCurator#lastRefusal()
	 */
	public Optional<LockRefusal> lastRefusal() {
		return Optional.ofNullable(this.lastRefusal.get());
	}

	/**
	 * Takes one of {@code permits} permits of the semaphore on {@code path}, on Curator's
	 * {@code InterProcessSemaphoreV2}; see {@link SemaphoreByCurator}, which delegates here.
	 * @param path the semaphore path, such as {@code "reports"}, relative to the lock root
	 * @param permits the semaphore's permit count, at least 1, the same in every process
	 * @param maxWait the longest wait, {@link Duration#ZERO} to take a free permit or give up;
	 * {@code null} to wait as long as it takes
	 * @return the lease, or empty if the wait ran out (nothing is left behind)
	 * @throws IllegalArgumentException if the permit count or the path is invalid
	 * @throws LockAcquisitionException if interrupted (the interrupt flag is set again), if
	 * ZooKeeper fails, or if this engine stopped granting
	 */
	public Optional<PermitLease> acquirePermit(String path, int permits, @Nullable Duration maxWait) {
		if (permits < 1) {
			throw new IllegalArgumentException("Permit count " + permits + " for semaphore '" + path
					+ "' is invalid: a semaphore needs at least 1 permit");
		}
		String relative = this.root.relative(path);
		return this.locks.acquirePermit(relative, this.root.zooKeeperPath(relative), permits, maxWait);
	}

	/**
	 * What an acquire of {@code request}'s lock path by the current thread waits for now, as far
	 * as this process can tell: the holds of this engine on it (who holds, since when, and where
	 * they were acquired, if recorded), a deadlock or likely deadlock with this thread's own holds,
	 * and what the lock node a waiter of this engine last waited for on it says of its holder
	 * ({@link LockNodeData}). For the message of a wait that ran out, which otherwise reads the same
	 * for a leaked handle, a self-deadlock and real contention.
	 * @param request the request whose wait ran out
	 * @return the explanation, or empty if this process knows nothing of the lock path's holders
	 * @throws IllegalArgumentException if the request is {@code null} or its lock path is invalid
	 */
	public Optional<String> explainWait(LockRequest request) {
		if (request == null) {
			throw new IllegalArgumentException("Lock request must not be null; build one with LockRequest.of(path, mode)");
		}
		String lockPath = this.root.relative(request.path());
		return this.locks.explainWait(request, lockPath, this.root.zooKeeperPath(lockPath));
	}

	/**
	 * Sets how this engine looks for leaked locks ({@link LeakDetection#defaults()} until set),
	 * for the grants from now on.
	 * @param leakDetection the setting
	 * @throws IllegalArgumentException if {@code leakDetection} is {@code null}
	 */
	public void setLeakDetection(LeakDetection leakDetection) {
		if (leakDetection == null) {
			throw new IllegalArgumentException("'leakDetection' must not be null; pass LeakDetection.defaults()");
		}
		this.locks.setLeakDetection(leakDetection);
	}

	/**
	 * The lock nodes this engine holds now, oldest first.
	 * @return a snapshot, one entry per lock node (reentrant holds are counted in it)
	 */
	public List<HeldLock> getHeldLocks() {
		return this.locks.heldLocks();
	}

	/**
	 * The lock nodes this engine holds now that no code can release any more: every handle of each
	 * became unreachable without being released (a leak, reported at ERROR and to
	 * {@link LockListener#onLeaked}). They are among {@link #getHeldLocks()}, and stay held until
	 * this engine closes ({@link #close()} releases them) or the session ends; a graceful shutdown
	 * need not wait for them. A thread-owned one becomes releasable again if its thread re-enters it.
	 * @return a snapshot, oldest first
	 */
	public List<HeldLock> getLeakedLocks() {
		return this.locks.leakedLocks();
	}

	/**
	 * Registers a listener for the events of all locks of this engine.
	 * @param listener the listener
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	public void addListener(LockListener listener) {
		this.locks.addListener(listener);
	}

	/**
	 * Since when this engine's client is not connected to the ensemble: while it is not, no lock
	 * node can be created or watched, and waits run out for the connection rather than for the
	 * lock's holders.
	 * @return the instant the connection went away (at the latest, when the engine began to
	 * follow the client), or empty while connected
	 */
	public Optional<Instant> disconnectedSince() {
		return this.locks.disconnectedSince();
	}

	/**
	 * Grants no lock and no permit from now on, for an orderly shutdown: every new acquire fails
	 * at once with a {@link LockAcquisitionException} that gives {@code reason}; one already
	 * waiting fails the same way when its turn comes, and gives the lock up at once, so that the
	 * next waiter in the queue (of another process) gets it. A thread re-entering a lock it holds
	 * still gets it, and held locks stay held until released, so that running work can finish.
	 * Not undone: an engine that stopped granting stays so.
	 * @param reason why, for the exception's message, such as "the application is shutting down"
	 * @throws IllegalArgumentException if {@code reason} is {@code null} or blank
	 */
	public void stopGranting(String reason) {
		if (reason == null || reason.isBlank()) {
			throw new IllegalArgumentException("'reason' must not be blank: it is what a refused acquire says");
		}
		this.locks.stopGranting(reason);
	}

	/**
	 * The Curator client the locks use.
	 * @return the client
	 */
	public CuratorFramework getClient() {
		return this.client;
	}

	/**
	 * The local-handoff setting this engine was made with.
	 * @return the setting
	 */
	public LocalHandoff getLocalHandoff() {
		return this.localHandoff;
	}

	/**
	 * The lock root that lock paths are relative to.
	 * @return for example {@code "/locks"}, inside the client's namespace
	 */
	public String getRootPath() {
		return this.root.path();
	}

	/**
	 * Releases the locks no code can release any more ({@link #getLeakedLocks()}: every handle of
	 * each became unreachable unreleased), each logged at WARN, then stops following the client's
	 * connection state and timing hold bounds. Other held locks stay as they are; release them
	 * before closing the client.
	 */
	@Override
	public void close() {
		this.locks.close();
	}

	@Override
	public String toString() {
		return "LockEngine[" + this.root.path() + ", namespace " + this.client.getNamespace() + "]";
	}

}
