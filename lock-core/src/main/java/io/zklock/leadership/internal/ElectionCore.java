package io.zklock.leadership.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeadershipListener;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.framework.api.CuratorListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;

/**
 * The machinery of one leader election, behind {@code io.zklock.leadership.LeaderElection}: the
 * candidacies by role, and what wakes their reconciliation: the client's connection state (followed
 * whatever its {@code ConnectionStateErrorPolicy}: SUSPENDED revokes every active term at once), the
 * engine's doubt, loss and confirmation of their holds, and the lease's renewals and expiry. A
 * client that closes ends every candidacy (its session, and so every candidate node, ends with it).
 *
 * <p>
 * Internal: not part of zklock's API, no compatibility promise; public only for
 * {@code io.zklock.leadership.LeaderElection}, which is what to use. Thread-safe.
 */
public final class ElectionCore implements AutoCloseable {

	/** How long closing waits for the election's own listener threads to end. */
	private static final Duration LISTENER_THREADS_END = Duration.ofSeconds(1);

	private final ElectionContext context;

	/** Guarded by this. */
	private final Map<String, LocalCandidacy> candidacies = new LinkedHashMap<>();

	private final ConnectionStateListener stateListener = (client, state) -> stateChanged(state);

	private final CuratorListener closeListener = (client, event) -> {
		if (event.getType() == CuratorEventType.CLOSING) {
			all().forEach(LocalCandidacy::clientClosing);
		}
	};

	/** Guarded by this. */
	private boolean closed;

	/**
	 * Creates the machinery and starts following the client's connection state.
	 * @param client a started Curator client
	 * @param rootPath the leadership root
	 * @param application the application named in every candidate node, or {@code null}
	 * @param instance the instance named in every candidate node, or {@code null}
	 * @param listenerExecutor where listeners run, or {@code null} for the election's own threads
	 * @param leaseFactor the lease factor, greater than 0 and less than 1
	 * @param handoverTimeout how long ending a term waits for its onRevoked listeners
	 * @throws IllegalArgumentException if the client is {@code null} or the leadership root invalid
	 */
	public ElectionCore(CuratorFramework client, String rootPath, @Nullable String application,
			@Nullable String instance, @Nullable Executor listenerExecutor, double leaseFactor, Duration handoverTimeout) {
		this.context = new ElectionContext(client, rootPath, application, instance, listenerExecutor, leaseFactor,
				handoverTimeout,
				this::hasCandidacies, this::reconcileAll, this::reconcileAll);
		this.context.engine().addListener(new LockListener() {

			@Override
			public void onInDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
				reconcile(lock.lockPath());
			}

			@Override
			public void onConfirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
				reconcile(lock.lockPath());
			}

			@Override
			public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
				reconcile(lock.lockPath());
			}

		});
		client.getConnectionStateListenable().addListener(this.stateListener);
		client.getCuratorListenable().addListener(this.closeListener);
		this.context.start();
	}

	/**
	 * Joins a role.
	 * @param role the role as the application wrote it
	 * @param listener a listener to register first, or {@code null}
	 * @return the candidacy, started
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 * @throws IllegalStateException if the role is joined already or the election is closed
	 */
	public Candidacy join(String role, @Nullable LeadershipListener listener) {
		String checked = this.context.role(role);
		LocalCandidacy candidacy;
		synchronized (this) {
			if (this.closed) {
				throw new IllegalStateException("This leader election is closed: join role '" + checked
						+ "' with a new one");
			}
			if (this.candidacies.containsKey(checked)) {
				throw new IllegalStateException("Role '" + checked + "' already has a candidacy in this leader "
						+ "election: use candidacy(role), or leave it before joining again");
			}
			List<LeadershipListener> listeners = new ArrayList<>(this.context.listeners());
			if (listener != null) {
				listeners.add(listener);
			}
			candidacy = new LocalCandidacy(this.context, checked, listeners, this::left);
			this.candidacies.put(checked, candidacy);
		}
		candidacy.start();
		this.context.lease().renewNow();
		return candidacy;
	}

	/**
	 * The candidacy for a role.
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 */
	public synchronized Optional<Candidacy> candidacy(String role) {
		return Optional.ofNullable(this.candidacies.get(this.context.role(role)));
	}

	/** The candidacies, in the order they joined. */
	public synchronized List<Candidacy> candidacies() {
		return List.copyOf(this.candidacies.values());
	}

	/**
	 * Registers a listener for every candidacy, now and later; a candidacy that leads now tells it of
	 * its term first.
	 * @return unregisters it
	 */
	public Runnable addListener(LeadershipListener listener) {
		List<LocalCandidacy> joined;
		synchronized (this) {
			// a candidacy that joins from now on copies it at its join
			this.context.listeners().add(listener);
			joined = List.copyOf(this.candidacies.values());
		}
		joined.forEach((candidacy) -> candidacy.addListener(listener));
		return () -> {
			this.context.listeners().remove(listener);
			all().forEach((candidacy) -> candidacy.removeListener(listener));
		};
	}

	/**
	 * The candidates of a role as ZooKeeper has them now.
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 * @throws io.zklock.leadership.LeadershipException if ZooKeeper cannot be read
	 */
	public List<Candidate> candidates(String role) {
		return this.context.candidates(this.context.role(role));
	}

	/** How long the lease holds from now, if it does. */
	public Optional<Duration> leaseRemaining() {
		return this.context.lease().remaining();
	}

	/** The leadership root. */
	public String rootPath() {
		return this.context.rootPath();
	}

	/** Leaves every candidacy, then stops following the client and the election's threads. */
	@Override
	public void close() {
		List<LocalCandidacy> all;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			all = List.copyOf(this.candidacies.values());
		}
		all.forEach(LocalCandidacy::leave);
		this.context.client().getConnectionStateListenable().removeListener(this.stateListener);
		this.context.client().getCuratorListenable().removeListener(this.closeListener);
		this.context.close();
		this.context.awaitListenerThreads(LISTENER_THREADS_END);
	}

	private synchronized boolean hasCandidacies() {
		return !this.candidacies.isEmpty();
	}

	private synchronized List<LocalCandidacy> all() {
		return List.copyOf(this.candidacies.values());
	}

	private synchronized void left(LocalCandidacy candidacy) {
		this.candidacies.remove(candidacy.role(), candidacy);
	}

	private void reconcile(String role) {
		LocalCandidacy candidacy;
		synchronized (this) {
			candidacy = this.candidacies.get(role);
		}
		if (candidacy != null) {
			candidacy.reconcile();
		}
	}

	private void reconcileAll() {
		all().forEach(LocalCandidacy::reconcile);
	}

	/**
	 * On Curator's connection-state thread. Any state that is not connected (SUSPENDED, LOST, and
	 * READ_ONLY, which is not connected to the quorum) moves the epoch and revokes every active term
	 * at once; LOST ends them. A reconnect renews the lease and reconciles.
	 */
	private void stateChanged(ConnectionState state) {
		List<LocalCandidacy> all = all();
		if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
			this.context.connectionBack();
			this.context.lease().renewNow();
			all.forEach(LocalCandidacy::connectionBack);
		}
		else {
			this.context.connectionLost(state == ConnectionState.READ_ONLY);
			all.forEach((candidacy) -> candidacy.connectionLost(state == ConnectionState.LOST));
		}
	}

}
