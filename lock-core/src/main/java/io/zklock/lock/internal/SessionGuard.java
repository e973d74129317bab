package io.zklock.lock.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.zklock.lock.LockState;
import org.apache.curator.CuratorZookeeperClient;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.framework.api.CuratorListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the client's connection state for everything held through ephemeral nodes (locks
 * and semaphore leases), as Curator Tech Note 14 asks of every lock user: under the client's
 * {@code ConnectionStateErrorPolicy}, an error state puts every hold in doubt and LOST loses it;
 * after a reconnect with the same session a hold in doubt is held again only once a quorum
 * operation (a {@code multi} with a {@code check} of its node, which the leader orders after
 * every earlier write) found the node owned by the session.
 *
 * <p>
 * Every event of the connection going away (SUSPENDED, LOST) increments the <em>connection
 * epoch</em>; a confirmation counts only if the epoch did not move since it began, so a SUSPENDED
 * event racing a confirmation never lets a hold turn HELD while disconnected, and a grant
 * decided before such an event starts in doubt. Confirmations run on this guard's own daemon thread
 * (ZooKeeper calls block), never on Curator's shared threads. Waiting acquires and releases
 * subscribe to connection signals through {@link #subscribe(Consumer)}.
 *
 * <p>
 * ZooKeeper's client can drop the {@code Disconnected} event of a connection that ends while a
 * watch removal awaits its reply, and Curator then reports nothing; the guard also reads the
 * client's own event stream and acts as on SUSPENDED (and RECONNECTED) for a disconnect that was
 * not announced (docs/lock-protocol.md, "A disconnect the ZooKeeper client does not announce").
 *
 * <p>
 * Thread-safe.
 */
final class SessionGuard implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(SessionGuard.class);

	/**
	 * The guards that follow each client's connection, one per engine, so that an unannounced
	 * disconnect one of them hears reaches them all ({@link #watchEvent}). Weak both ways (a
	 * guard never closed goes with its engine, a client with its guards); guarded by its own
	 * monitor.
	 */
	private static final Map<CuratorZookeeperClient, Set<SessionGuard>> byConnection = new WeakHashMap<>();

	private final CuratorFramework client;

	private final HoldReports reports;

	/** When the connection went away; {@code null} while connected. */
	private volatile @Nullable Instant disconnectedSince;

	private final Set<GuardedHold> holds = ConcurrentHashMap.newKeySet();

	private final Set<Consumer<ConnectionSignal>> subscribers = ConcurrentHashMap.newKeySet();

	private final AtomicLong epoch = new AtomicLong();

	/** The epoch of the last LOST event: a grant decided before it belongs to a lost session. */
	private final AtomicLong lostAt = new AtomicLong(-1);

	/**
	 * Orders registrations against connection events: a hold is either registered before an
	 * event, which then reaches it, or checked against the event's epoch and refused. Never held
	 * while loss callbacks run or while calling into the client.
	 */
	private final Object registration = new Object();

	private final ThreadPoolExecutor confirmations;

	private final ConnectionStateListener stateListener = (client, state) -> stateChanged(state);

	private final CuratorListener eventListener = (client, event) -> {
		if (event.getType() == CuratorEventType.CLOSING) {
			signal(ConnectionSignal.CLOSED);
		}
		else if (event.getType() == CuratorEventType.WATCHED && event.getWatchedEvent() != null
				&& event.getWatchedEvent().getType() == EventType.None) {
			connectionEvent(event.getWatchedEvent().getState());
		}
	};

	/**
	 * Whether the client's own event stream said the connection went away since it last said
	 * connected (or the guard saw it go unannounced). Guarded by {@link #stream}.
	 */
	private boolean awayInStream;

	/**
	 * The connection the stream last said connected: its local socket address, as the ZooKeeper
	 * handle describes itself; {@code null} if unknown. Guarded by {@link #stream}.
	 */
	private @Nullable String connection;

	/** Guards {@link #awayInStream}, {@link #connection} and the changes of {@link #awayUnannounced}. */
	private final Object stream = new Object();

	/**
	 * The guard acted as on SUSPENDED for a disconnect ZooKeeper did not announce, and has not
	 * seen the reconnect yet: Curator still says connected, so the guard says it is not.
	 */
	private volatile boolean awayUnannounced;

	/** Runs the guard's own transitions for unannounced disconnects, off ZooKeeper's event thread. */
	private final ThreadPoolExecutor unannounced;

	/**
	 * @param client the client whose connection state to follow
	 * @param reports told of each hold put in doubt, confirmed again or lost, on the thread
	 * that noticed
	 */
	SessionGuard(CuratorFramework client, HoldReports.Listener reports) {
		this.client = client;
		this.reports = new HoldReports(reports);
		this.disconnectedSince = isConnected() ? null : Instant.now();
		this.confirmations = daemonThread("zklock-ownership-confirmation");
		this.unannounced = daemonThread("zklock-connection-events");
		synchronized (this.stream) {
			this.awayInStream = !isConnected();
			this.connection = this.awayInStream ? null : currentConnection();
		}
		client.getConnectionStateListenable().addListener(this.stateListener);
		client.getCuratorListenable().addListener(this.eventListener);
		synchronized (byConnection) {
			byConnection.computeIfAbsent(client.getZookeeperClient(), (connection) -> Collections.newSetFromMap(new WeakHashMap<>()))
				.add(this);
		}
	}

	/** One daemon thread that runs tasks in turn, and ends after 10 s without one. */
	private static ThreadPoolExecutor daemonThread(String name) {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				(runnable) -> {
					Thread thread = new Thread(runnable, name);
					thread.setDaemon(true);
					return thread;
				});
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.stateListener);
		this.client.getCuratorListenable().removeListener(this.eventListener);
		synchronized (byConnection) {
			Set<SessionGuard> guards = byConnection.get(this.client.getZookeeperClient());
			if (guards != null) {
				guards.remove(this);
			}
		}
		this.confirmations.shutdownNow();
		this.unannounced.shutdownNow();
	}

	/** The connection epoch: changes each time the connection goes away. */
	long epoch() {
		return this.epoch.get();
	}

	/** The client's current session id, or 0 while it has none. */
	long sessionId() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	/** Whether the client is connected, as Curator says, unless the guard saw it go away unannounced. */
	boolean isConnected() {
		return !this.awayUnannounced && this.client.getZookeeperClient().isConnected();
	}

	/**
	 * Hears an event of one of zklock's own watches (set through {@link RawWatches}), on
	 * ZooKeeper's event thread. A watch event whose state is {@code Disconnected} comes only from a
	 * request the client failed for the connection or the session (a watch removal under way when
	 * the connection ended); ZooKeeper then drops the {@code Disconnected} connection event behind
	 * it, so every guard that follows the same client (whose ZooKeeper handle the watch was on)
	 * and whose stream has not said the connection went away acts as on SUSPENDED now.
	 */
	void watchEvent(WatchedEvent event) {
		if (event.getType() == EventType.None || event.getState() != KeeperState.Disconnected) {
			return;
		}
		List<SessionGuard> guards;
		synchronized (byConnection) {
			Set<SessionGuard> following = byConnection.get(this.client.getZookeeperClient());
			guards = (following != null) ? List.copyOf(following) : List.of(this);
		}
		for (SessionGuard guard : guards) {
			guard.awayUnannounced();
		}
	}

	/** Acts as on SUSPENDED for a disconnect the stream did not announce, unless it did. */
	private void awayUnannounced() {
		synchronized (this.stream) {
			if (this.awayInStream) {
				return;
			}
			this.awayInStream = true;
			this.awayUnannounced = true;
		}
		logger.info("The connection to ZooKeeper ended without a Disconnected event (a watch removal failed with it): "
				+ "every hold is in doubt until the reconnect");
		runUnannounced(ConnectionState.SUSPENDED);
	}

	/**
	 * A connection event of the client's own stream (type {@code None}), on ZooKeeper's event
	 * thread, before Curator's listeners hear of it on their own thread.
	 */
	void connectionEvent(KeeperState state) {
		if (state == KeeperState.SyncConnected || state == KeeperState.ConnectedReadOnly) {
			String now = currentConnection();
			boolean wasAway;
			boolean wasUnannounced;
			String known;
			synchronized (this.stream) {
				wasAway = this.awayInStream;
				wasUnannounced = this.awayUnannounced;
				known = this.connection;
				this.awayInStream = false;
				this.awayUnannounced = false;
				this.connection = now;
			}
			if (wasUnannounced) {
				// the guard acted as on SUSPENDED; Curator, which saw no disconnect, sends no RECONNECTED
				runUnannounced(ConnectionState.RECONNECTED);
			}
			else if (!wasAway && known != null && now != null && !now.equals(known)) {
				// a new connection whose predecessor's end nobody announced (not the event of the
				// connection this guard began on, which can still be on its way): the holds were in doubt
				if (!this.holds.isEmpty()) {
					logger.warn("The client reconnected to ZooKeeper after a disconnect that was not announced: "
							+ "every hold is in doubt until its ownership is confirmed");
				}
				runUnannounced(ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
			}
		}
		else {
			synchronized (this.stream) {
				this.awayInStream = true;
			}
		}
	}

	/**
	 * The client's current connection, told apart by its local socket address (a new TCP
	 * connection has a port of its own), as ZooKeeper's handle describes itself
	 * ({@code ... local:/127.0.0.1:40312 remoteserver:...}); {@code null} if unknown.
	 */
	private @Nullable String currentConnection() {
		try {
			String description = this.client.getZookeeperClient().getZooKeeper().toString();
			int local = description.indexOf(" local:");
			int remote = description.indexOf(" remoteserver:", local + 1);
			if (local < 0 || remote < 0) {
				return null;
			}
			String address = description.substring(local + " local:".length(), remote);
			return address.equals("null") ? null : address;
		}
		catch (Exception ex) {
			return null;
		}
	}

	private void runUnannounced(ConnectionState... states) {
		try {
			this.unannounced.execute(() -> {
				for (ConnectionState state : states) {
					stateChanged(state);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	/**
	 * How long after a request was sent the session is sure to live: half the session timeout
	 * the server negotiated (the server ends a session only after hearing nothing from its client
	 * for that long; the other half covers clocks that run at slightly different rates). Zero while
	 * the client has no session.
	 * @return nanoseconds
	 */
	long sessionLeaseNanos() {
		try {
			return TimeUnit.MILLISECONDS.toNanos(this.client.getZookeeperClient().getZooKeeper().getSessionTimeout()) / 2;
		}
		catch (Exception ex) {
			return 0;
		}
	}

	/**
	 * Since when the client is not connected (at the latest since this guard began to follow
	 * it), or empty while it is connected.
	 */
	synchronized Optional<Instant> disconnectedSince() {
		if (!isConnected() && this.disconnectedSince == null) {
			this.disconnectedSince = Instant.now(); // seen before Curator's state listener: one instant for all
		}
		return isConnected() ? Optional.empty() : Optional.ofNullable(this.disconnectedSince);
	}

	/**
	 * Starts guarding a hold just granted. Its grant was decided at connection epoch
	 * {@code decidedAt}; if the connection changed since, or is in an error state now, the hold
	 * starts in doubt (and is confirmed once connected).
	 * @return {@code false} if the session that owns the node has ended or was declared lost
	 * since the decision: the hold was not registered and its node must be given up
	 */
	boolean register(GuardedHold hold, long decidedAt) {
		// read outside the lock: the handle can stall while Curator replaces it, and the
		// connection-state thread needs the lock. A session that ends after this read is caught
		// by lostAt below, or reaches the registered hold with its LOST event.
		if (sessionId() != hold.sessionId()) {
			return false;
		}
		boolean inDoubt;
		synchronized (this.registration) {
			if (this.lostAt.get() > decidedAt) {
				return false;
			}
			this.holds.add(hold);
			boolean suspended = !isConnected()
					&& this.client.getConnectionStateErrorPolicy().isErrorState(ConnectionState.SUSPENDED);
			inDoubt = suspended || this.epoch.get() != decidedAt;
			if (inDoubt) {
				// a new hold has no loss callbacks yet: nothing runs under the lock
				hold.degrade(LockState.IN_DOUBT);
			}
		}
		if (inDoubt && isConnected()) {
			scheduleConfirmation();
		}
		return true;
	}

	void unregister(GuardedHold hold) {
		this.holds.remove(hold);
		this.reports.forget(hold);
	}

	/** The holds guarded now. */
	Set<GuardedHold> holds() {
		return this.holds;
	}

	/**
	 * Tells {@code subscriber} of every connection signal until the returned callback runs.
	 * @return unsubscribes
	 */
	Runnable subscribe(Consumer<ConnectionSignal> subscriber) {
		this.subscribers.add(subscriber);
		return () -> this.subscribers.remove(subscriber);
	}

	private void stateChanged(ConnectionState state) {
		if (state.isConnected()) {
			this.disconnectedSince = null;
		}
		else if (this.disconnectedSince == null) {
			this.disconnectedSince = Instant.now();
		}
		List<GuardedHold> registered;
		synchronized (this.registration) {
			if (!state.isConnected()) {
				// only the connection going away can invalidate a grant or a confirmation under way
				long now = this.epoch.incrementAndGet();
				if (state == ConnectionState.LOST) {
					this.lostAt.set(now);
				}
			}
			registered = List.copyOf(this.holds);
		}
		if (state == ConnectionState.LOST) {
			registered.forEach((hold) -> degrade(hold, LockState.LOST));
			signal(ConnectionSignal.LOST);
		}
		else if (this.client.getConnectionStateErrorPolicy().isErrorState(state)) {
			registered.forEach((hold) -> degrade(hold, LockState.IN_DOUBT));
			signal(ConnectionSignal.DISCONNECTED);
		}
		else if (state.isConnected()) {
			if (!this.holds.isEmpty()) {
				scheduleConfirmation();
			}
			signal(ConnectionSignal.RECONNECTED);
		}
		else {
			signal(ConnectionSignal.DISCONNECTED);
		}
	}

	private void signal(ConnectionSignal signal) {
		for (Consumer<ConnectionSignal> subscriber : this.subscribers) {
			try {
				subscriber.accept(signal);
			}
			catch (RuntimeException ex) {
				logger.warn("Connection signal {} could not be delivered", signal, ex);
			}
		}
	}

	private void scheduleConfirmation() {
		long startedAt = this.epoch.get();
		try {
			this.confirmations.execute(() -> this.holds.forEach((hold) -> confirm(hold, startedAt)));
		}
		catch (RejectedExecutionException ex) {
			// closed: the holds stay as they are
		}
	}

	/**
	 * A hold in doubt is held again only if the session is unchanged and a quorum operation
	 * finds its node owned by the session; a hold of an older session is lost.
	 */
	void confirm(GuardedHold hold, long startedAt) {
		LockState state = hold.state();
		if (state == LockState.LOST || state == LockState.RELEASED) {
			return;
		}
		String nodePath = hold.nodePath();
		try {
			long sessionId = this.client.getZookeeperClient().getZooKeeper().getSessionId();
			if (sessionId != hold.sessionId()) {
				degrade(hold, LockState.LOST);
				return;
			}
			if (state != LockState.IN_DOUBT) {
				return;
			}
			this.client.transaction().forOperations(this.client.transactionOp().check().forPath(nodePath));
			Stat stat = this.client.checkExists().forPath(nodePath);
			if (stat != null && stat.getEphemeralOwner() == sessionId) {
				Duration inDoubtFor = hold.confirm(() -> this.epoch.get() == startedAt && isConnected());
				if (inDoubtFor != null) {
					this.reports.confirmed(hold, inDoubtFor);
				}
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
			logger.debug("Could not confirm the hold of {} yet", nodePath, ex);
		}
	}

	private void degrade(GuardedHold hold, LockState next) {
		LockState left = hold.degrade(next);
		if (left != null) {
			this.reports.degraded(hold, left, next);
		}
	}

}
