package io.zklock.leadership.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.zklock.internal.LockPaths;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeadershipException;
import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.lock.LockEngine;
import io.zklock.lock.LockState;
import io.zklock.lock.inspection.LockQueueInspector;
import io.zklock.lock.inspection.QueuedNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * What the candidacies of one election share: the Curator client and the lock engine of the
 * leadership root, the connection epoch, the local lease, the election's threads and listeners, and
 * the checks every term's activity is computed from. Thread-safe.
 */
final class ElectionContext {

	private static final AtomicInteger listenerThreads = new AtomicInteger();

	/** How long closing waits for a ZooKeeper read under way. */
	private static final Duration IO_END = Duration.ofSeconds(5);

	private final CuratorFramework client;

	private final LockEngine engine;

	private final LockQueueInspector inspector;

	private final String rootPath;

	private final boolean namespaced;

	private final ScheduledThreadPoolExecutor timer;

	private final ThreadPoolExecutor io;

	private final Executor listenerExecutor;

	private final @Nullable ExecutorService ownListenerThreads;

	private final Duration handoverTimeout;

	/** Moves each time the connection goes away or the lease runs out: a confirmation begun before counts for nothing. */
	private final AtomicLong epoch = new AtomicLong();

	private final SessionLease lease;

	private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

	/** Connected to a read-only server: not connected for leadership. */
	private volatile boolean readOnly;

	private volatile boolean closed;

	/**
	 * @param leaseWanted whether the lease should be renewed (the election has candidacies)
	 * @param leaseRenewed told on the timer after a renewal moved the lease
	 * @param leaseExpired told on the timer when the lease ran out (the epoch moved already)
	 * @throws IllegalArgumentException if the leadership root is not a valid ZooKeeper path
	 */
	ElectionContext(CuratorFramework client, String rootPath, @Nullable String application, @Nullable String instance,
			@Nullable Executor listenerExecutor,
			double leaseFactor, Duration handoverTimeout, BooleanSupplier leaseWanted, Runnable leaseRenewed,
			Runnable leaseExpired) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		this.namespaced = LockPaths.isNamespaced(client);
		try {
			LockPaths.validateRoot(rootPath, this.namespaced);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Leadership root '" + LockPaths.escape(rootPath) + "' is invalid: "
					+ ex.getMessage() + "; the default is '/leaders'", ex);
		}
		this.client = client;
		this.rootPath = rootPath;
		this.engine = LockEngine.builder(client).rootPath(rootPath).holder(application, instance).localHandoff(false).build();
		this.inspector = new LockQueueInspector(this.engine);
		this.handoverTimeout = handoverTimeout;
		this.timer = new ScheduledThreadPoolExecutor(1, daemon("zklock-leadership-timer"));
		this.timer.setRemoveOnCancelPolicy(true);
		this.timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		this.io = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				daemon("zklock-leadership-io"));
		this.io.allowCoreThreadTimeOut(true);
		if (listenerExecutor != null) {
			this.listenerExecutor = listenerExecutor;
			this.ownListenerThreads = null;
		}
		else {
			ThreadPoolExecutor own = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS,
					new SynchronousQueue<>(), (runnable) -> {
						Thread thread = new Thread(runnable,
								"zklock-leadership-events-" + listenerThreads.incrementAndGet());
						thread.setDaemon(true);
						return thread;
					});
			this.listenerExecutor = own;
			this.ownListenerThreads = own;
		}
		this.lease = new SessionLease(client, leaseFactor, this.timer, leaseWanted, leaseRenewed, () -> {
			this.epoch.incrementAndGet();
			leaseExpired.run();
		}, System::nanoTime);
	}

	private static ThreadFactory daemon(String name) {
		return (runnable) -> {
			Thread thread = new Thread(runnable, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	void start() {
		this.lease.start();
	}

	CuratorFramework client() {
		return this.client;
	}

	LockEngine engine() {
		return this.engine;
	}

	String rootPath() {
		return this.rootPath;
	}

	ScheduledThreadPoolExecutor timer() {
		return this.timer;
	}

	ThreadPoolExecutor io() {
		return this.io;
	}

	Executor listenerExecutor() {
		return this.listenerExecutor;
	}

	Duration handoverTimeout() {
		return this.handoverTimeout;
	}

	SessionLease lease() {
		return this.lease;
	}

	List<LeadershipListener> listeners() {
		return this.listeners;
	}

	boolean isClosed() {
		return this.closed;
	}

	long epoch() {
		return this.epoch.get();
	}

	/** The connection went away (or is read-only): every confirmation under way counts for nothing. */
	void connectionLost(boolean readOnlyNow) {
		this.readOnly = readOnlyNow;
		this.epoch.incrementAndGet();
	}

	/** A term went into jeopardy: every confirmation under way counts for nothing. */
	void jeopardy() {
		this.epoch.incrementAndGet();
	}

	void connectionBack() {
		this.readOnly = false;
	}

	/**
	 * Checks a role and returns it as a lock path relative to the leadership root.
	 * @throws IllegalArgumentException naming the role and the rule it breaks
	 */
	String role(@Nullable String role) {
		try {
			String relative = LockPaths.normalize(role, this.rootPath);
			LockPaths.toZooKeeperPath(relative, this.rootPath, this.namespaced);
			return relative;
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Role '" + LockPaths.escape(role) + "' is invalid: a role must be a lock "
					+ "path under the leadership root " + this.rootPath + ", such as 'billing-close' or 'billing/close' ("
					+ ex.getMessage() + ")", ex);
		}
	}

	/** The ZooKeeper path, inside the namespace, of a checked role's lock nodes. */
	String rolePath(String role) {
		return ZKPaths.makePath(this.rootPath, role);
	}

	boolean isConnected() {
		return !this.readOnly && this.client.getZookeeperClient().isConnected();
	}

	/** The client's session now, or 0 while it has none. */
	long sessionId() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	/**
	 * Whether a term's live sources hold: the election is open, the client connected, the term's
	 * session the lease's and the lease unexpired, and its hold held by the engine.
	 */
	boolean isLive(HeldTerm term) {
		return !this.closed && isConnected() && this.lease.isValid(term.sessionId())
				&& term.hold().state() == LockState.HELD;
	}

	/** The first live source that fails for a term, or {@code null}. */
	@Nullable RevocationReason whyNotLive(HeldTerm term) {
		if (this.closed) {
			return RevocationReason.SHUTDOWN;
		}
		if (!isConnected()) {
			return RevocationReason.CONNECTION_SUSPENDED;
		}
		LockState state = term.hold().state();
		if (state == LockState.LOST) {
			return RevocationReason.SESSION_LOST;
		}
		if (state != LockState.HELD) {
			return RevocationReason.CONNECTION_SUSPENDED;
		}
		if (!this.lease.isValid(term.sessionId())) {
			return RevocationReason.LEASE_EXPIRED;
		}
		return null;
	}

	/**
	 * The candidates of a checked role as ZooKeeper has them now.
	 * @throws LeadershipException if ZooKeeper cannot be read
	 */
	List<Candidate> candidates(String role) {
		List<QueuedNode> nodes;
		try {
			nodes = this.inspector.inspect(role);
		}
		catch (Exception ex) {
			throw new LeadershipException("Could not read the candidates of role '" + role + "' (ZooKeeper path "
					+ rolePath(role) + "): " + ex, ex);
		}
		long session = sessionId();
		return nodes.stream().map((node) -> HolderData.candidate(role, node, session)).toList();
	}

	/**
	 * Stops the lease, the threads and the engine of the election. Candidacies must have left.
	 */
	void close() {
		this.closed = true;
		this.lease.stop();
		this.timer.shutdownNow();
		// a read under way finishes (and takes off a watch it set after its candidacy left)
		this.io.shutdown();
		try {
			if (!this.io.awaitTermination(IO_END.toNanos(), TimeUnit.NANOSECONDS)) {
				this.io.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.io.shutdownNow();
			Thread.currentThread().interrupt();
		}
		this.engine.close();
		if (this.ownListenerThreads != null) {
			this.ownListenerThreads.shutdown();
		}
	}

	/** Waits a little for the election's own listener threads, once closed. */
	void awaitListenerThreads(Duration atMost) {
		if (this.ownListenerThreads != null) {
			try {
				this.ownListenerThreads.awaitTermination(atMost.toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
