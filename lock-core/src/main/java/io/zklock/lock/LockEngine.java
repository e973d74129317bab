package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.zklock.internal.LockNodeData;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.internal.ClientLocks;
import io.zklock.lock.internal.LeakDetection;
import io.zklock.lock.internal.LocalHandoff;
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
 * {@link #builder(CuratorFramework)} sets what its lock nodes say of their holder, local handoff
 * and leak detection. It resolves paths and checks arguments, and hands each call to its machinery in
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
	 * Creates an engine with the defaults: lock nodes that say which host and process hold them,
	 * local handoff off, leak detection that records where each lock was acquired and has no
	 * threshold. {@link #builder(CuratorFramework)} sets the rest.
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @param rootPath the lock root, such as {@code "/locks"}
	 * @throws IllegalArgumentException if the client is {@code null} or the lock root is not a
	 * valid ZooKeeper path
	 */
	public LockEngine(CuratorFramework client, String rootPath) {
		this(builder(client).rootPath(rootPath));
	}

	private LockEngine(Builder builder) {
		this.root = new LockRoot(builder.client, builder.rootPath);
		this.client = builder.client;
		this.localHandoff = builder.localHandoff;
		this.locks = new ClientLocks(builder.client,
				LockNodeData.forThisProcess(builder.application, builder.instance), builder.localHandoff);
		this.locks.setLeakDetection(builder.leakDetection);
	}

	/**
	 * A builder of an engine with settings of its own:
	 *
	 * <pre class="code">
	 * LockEngine engine = LockEngine.builder(client)
	 *     .rootPath("/locks")
	 *     .holder("billing", "billing-1")
	 *     .localHandoff(true)
	 *     .build();
	 * </pre>
	 * @param client a started Curator client; its namespace, if any, contains the lock root
	 * @return the builder, with the defaults set
	 * @throws IllegalArgumentException if {@code client} is {@code null}
	 */
	public static Builder builder(CuratorFramework client) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null; pass a started CuratorFramework");
		}
		return new Builder(client);
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
	Optional<PermitLease> acquirePermit(String path, int permits, @Nullable Duration maxWait) {
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
	 * ({@link Builder#holder(String, String)}). For the message of a wait that ran out, which otherwise reads the same
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
		return "LockEngine[" + this.root.path() + ", namespace " + this.client.getNamespace() + ", " + this.localHandoff
				+ "]";
	}

	/**
	 * Settings of a {@link LockEngine}; {@link #build()} makes it. Not thread-safe.
	 */
	public static final class Builder {

		/** The lock root of an engine that sets none, as {@code zklock.root-path} defaults to. */
		private static final String DEFAULT_ROOT_PATH = "/locks";

		private final CuratorFramework client;

		private String rootPath = DEFAULT_ROOT_PATH;

		private @Nullable String application;

		private @Nullable String instance;

		private LocalHandoff localHandoff = LocalHandoff.defaults();

		private LeakDetection leakDetection = LeakDetection.defaults();

		private Builder(CuratorFramework client) {
			this.client = client;
		}

		/**
		 * The lock root: lock paths are relative to it.
		 * @param rootPath an absolute ZooKeeper path inside the client's namespace, {@code "/locks"}
		 * unless set; checked when the engine is built
		 * @return this builder
		 */
		public Builder rootPath(String rootPath) {
			this.rootPath = rootPath;
			return this;
		}

		/**
		 * Who holds this engine's locks, as every lock node says besides the host and process: one line
		 * of UTF-8 such as {@code zklock host=web-2 pid=4711 app=billing instance=billing-1}, which a
		 * waiter whose wait runs out names, and the actuator's {@code locks} endpoint shows. Curator's
		 * recipes never read a lock node's data, so Curator peers on the same lock path are not
		 * affected.
		 * @param application the application's name, such as {@code spring.application.name}, or
		 * {@code null} for none
		 * @param instance an id of this instance, or {@code null} for none
		 * @return this builder
		 */
		public Builder holder(@Nullable String application, @Nullable String instance) {
			this.application = application;
			this.instance = instance;
			return this;
		}

		/**
		 * Turns local handoff on, with its default bounds (32 handoffs of one lock node, within 50 ms of
		 * its grant), or off (the default): whether a held {@code EXCLUSIVE} or {@code WRITE} lock node
		 * is handed to this engine's next waiter for the same lock path instead of being deleted, with
		 * one ZooKeeper write instead of a delete, a create and a listing. Lock cohorting after Dice,
		 * Marathe and Shavit ("Lock Cohorting", PPoPP 2012) and Chubby's lock caching (Burrows, OSDI
		 * 2006). Each holder keeps its own handle, fencing token and events; what changes is the queue's
		 * shape (one lock node per process and lock path) and the order across processes (this
		 * process's waiters may pass another process's earlier waiter, up to the bounds). The
		 * soundness argument is in docs/lock-protocol.md.
		 * @param enabled whether local handoff is on
		 * @return this builder
		 */
		public Builder localHandoff(boolean enabled) {
			this.localHandoff = enabled ? LocalHandoff.on() : LocalHandoff.off();
			return this;
		}

		/**
		 * Turns local handoff on ({@link #localHandoff(boolean)}) with bounds of its own: a chain of
		 * handoffs of one lock node ends after {@code maxHandoffs} handoffs or {@code maxTime} since the
		 * node's grant, whichever comes first; the node is then deleted and the waiters left queue again
		 * behind other processes' waiters.
		 * @param maxHandoffs the most handoffs of one lock node, at least 1
		 * @param maxTime the longest time from a lock node's grant after which it is no longer handed
		 * on, positive
		 * @return this builder
		 * @throws IllegalArgumentException if {@code maxHandoffs} is below 1, or {@code maxTime} is
		 * {@code null}, zero or negative
		 */
		public Builder localHandoff(int maxHandoffs, Duration maxTime) {
			this.localHandoff = new LocalHandoff(true, maxHandoffs, maxTime);
			return this;
		}

		/**
		 * How the engine looks for leaked locks, in the manner of HikariCP's
		 * {@code leakDetectionThreshold} and Netty's {@code ResourceLeakDetector}. A {@link LockHandle}
		 * that becomes unreachable while still holding its lock is always reported, when the garbage
		 * collector finds it (an ERROR naming the lock and, where recorded, where it was acquired, and
		 * {@link io.zklock.lock.event.LockListener#onLeaked}): nothing can release that handle any more,
		 * so the lock stays held until its other handles are released, the engine closes (which
		 * releases a lock whose every handle leaked, {@link LockEngine#getLeakedLocks()}) or its session
		 * ends. With a threshold, a hold that lasts longer is reported once (a WARN naming its holder).
		 * Unless set: sites recorded, no threshold.
		 * @param recordSites whether each grant records the place it was acquired (the first caller
		 * frame outside zklock, Spring and the JDK: a few microseconds per grant), so that leak reports
		 * and the time-out message of a waiter behind a hold of this process can name it
		 * @param threshold how long a hold may last before it is reported, or {@code null} for no such
		 * report; a request's own {@link LockRequest#holdAtMost(Duration)} is reported instead
		 * @return this builder
		 * @throws IllegalArgumentException if {@code threshold} is zero or negative
		 */
		public Builder leakDetection(boolean recordSites, @Nullable Duration threshold) {
			this.leakDetection = new LeakDetection(recordSites, threshold);
			return this;
		}

		/**
		 * Builds the engine; it follows the client's connection state from now on and sends nothing
		 * until a lock is acquired.
		 * @return the engine
		 * @throws IllegalArgumentException if the lock root is not a valid ZooKeeper path
		 */
		public LockEngine build() {
			return new LockEngine(this);
		}

	}

}
