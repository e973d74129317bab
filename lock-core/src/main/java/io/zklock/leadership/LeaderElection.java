package io.zklock.leadership;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

import io.zklock.internal.Durations;
import io.zklock.leadership.internal.ElectionCore;
import io.zklock.lock.LockEngine;
import org.jspecify.annotations.Nullable;

/**
 * Leader election on zklock's lock protocol, for one Curator client: the entry point to join and
 * leave the candidates of roles, and to read who leads. A <em>role</em> (such as
 * {@code "billing-close"}) is a lock path under the leadership root ({@code /leaders} unless set); a
 * candidate is an exclusive acquire of it that waits without a limit; a <em>term</em> is the hold it
 * is granted, and the term's fencing token is the hold's. So a term has one fenced writer, Curator's
 * {@code InterProcessMutex} and {@code LeaderSelector} on the same ZooKeeper path share the queue, and
 * the leader node says who leads (host, process, application, instance). Why it is safe, jeopardy
 * and the local lease: docs/leadership-protocol.md; how to use it: docs/leadership.md.
 *
 * <pre class="code">
 * try (LeaderElection election = new LeaderElection(engine)) {
 *     Candidacy candidacy = election.join("billing-close");
 *     Optional&lt;Term&gt; term = candidacy.awaitTerm(Duration.ofSeconds(30));
 *     …
 * }
 * </pre>
 *
 * One election per {@link LockEngine} (its Curator client), one candidacy per role in it. The
 * election runs its candidates on an engine of its own over the same client, on the leadership
 * root, so leadership holds never show among the engine's locks and never meet its
 * {@link LockEngine#stopGranting(String)}. It keeps one local lease for the session
 * (docs/leadership-protocol.md, "The lease"): one {@code exists} every third of the session timeout
 * while a candidacy exists. Threads, all daemons: one per candidacy (its acquire waits), a timer and
 * a ZooKeeper-read thread per election, and the listener threads (see
 * {@link Builder#listenerExecutor(Executor)}).
 *
 * <p>
 * Thread-safe.
 */
public final class LeaderElection implements AutoCloseable {

	/** The leadership root unless set: roles are lock paths under it, inside the client's namespace. */
	public static final String DEFAULT_ROOT_PATH = "/leaders";

	/** The lease factor unless set: the lease lasts this fraction of the session timeout after a renewal was sent. */
	public static final double DEFAULT_LEASE_FACTOR = 0.8;

	/** How long ending a term waits for its {@code onRevoked} listeners unless set. */
	public static final Duration DEFAULT_HANDOVER_TIMEOUT = Duration.ofSeconds(10);

	private final ElectionCore core;

	/**
	 * Creates an election with the defaults: roles under {@value #DEFAULT_ROOT_PATH}, nodes that name
	 * this host and process ({@link Builder#holder(String, String)}), listeners on
	 * zklock's own threads, lease factor {@value #DEFAULT_LEASE_FACTOR}, handover timeout 10 s.
	 * @param engine the lock engine whose Curator client the election uses
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	public LeaderElection(LockEngine engine) {
		this(builder(engine));
	}

	private LeaderElection(Builder builder) {
		this.core = new ElectionCore(builder.engine.getClient(), builder.rootPath, builder.application,
				builder.instance, builder.listenerExecutor, builder.leaseFactor, builder.handoverTimeout);
	}

	/**
	 * A builder of an election with settings of its own.
	 * @param engine the lock engine whose Curator client the election uses
	 * @return the builder, with the defaults set
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	public static Builder builder(LockEngine engine) {
		if (engine == null) {
			throw new IllegalArgumentException("'engine' must not be null: pass the application's LockEngine");
		}
		return new Builder(engine);
	}

	/**
	 * Joins the candidates of a role: queues a lock node for it on a thread of zklock's own and
	 * returns at once. The candidacy leads when no node precedes its own, and queues again by itself
	 * after each term, until it steps down or leaves.
	 * @param role the role, a lock path under the leadership root, such as {@code "billing-close"} or
	 * {@code "billing/close"}
	 * @return the candidacy
	 * @throws IllegalArgumentException if the role is not a valid lock path (the message names it and
	 * the rule it breaks)
	 * @throws IllegalStateException if this election already has a candidacy for the role, or is closed
	 */
	public Candidacy join(String role) {
		return this.core.join(role, null);
	}

	/**
	 * Joins the candidates of a role with a listener registered before anything can happen, so that
	 * it hears every grant; see {@link #join(String)}.
	 * @param role the role, a lock path under the leadership root
	 * @param listener the candidacy's listener
	 * @return the candidacy
	 * @throws IllegalArgumentException if the role is not a valid lock path, or {@code listener} is
	 * {@code null}
	 * @throws IllegalStateException if this election already has a candidacy for the role, or is closed
	 */
	public Candidacy join(String role, LeadershipListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Leadership listener for role '" + role + "' must not be null");
		}
		return this.core.join(role, listener);
	}

	/**
	 * This election's candidacy for a role.
	 * @param role the role
	 * @return the candidacy, or empty if the role was not joined (or was left)
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 */
	public Optional<Candidacy> candidacy(String role) {
		return this.core.candidacy(role);
	}

	/**
	 * This election's candidacies, in the order they joined.
	 * @return a snapshot
	 */
	public List<Candidacy> candidacies() {
		return this.core.candidacies();
	}

	/**
	 * Whether this process leads a role now, for a check before leader-only work.
	 * @param role the role
	 * @return {@code true} if this election has a candidacy for it whose term is active
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 */
	public boolean isLeader(String role) {
		return this.core.candidacy(role).map(Candidacy::isLeader).orElse(false);
	}

	/**
	 * The candidates of a role as ZooKeeper has them now, of every process: one listing and one
	 * read of each node's data.
	 * @param role the role
	 * @return the candidates, the leader first, then in the order they will lead; empty if none
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 * @throws LeadershipException if ZooKeeper cannot be read
	 */
	public List<Candidate> candidates(String role) {
		return this.core.candidates(role);
	}

	/**
	 * The leader of a role as ZooKeeper has it now; see {@link #candidates(String)}.
	 * @param role the role
	 * @return the leader, or empty if the role has no candidate
	 * @throws IllegalArgumentException if the role is not a valid lock path
	 * @throws LeadershipException if ZooKeeper cannot be read
	 */
	public Optional<Candidate> leader(String role) {
		return candidates(role).stream().filter(Candidate::leader).findFirst();
	}

	/**
	 * Registers a listener for every role of this election, joined now or later. For each candidacy
	 * that leads now, it first hears {@link LeadershipListener#onGranted(Term)} of the current term.
	 * @param listener the listener
	 * @return a callback that unregisters it
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	public Runnable addListener(LeadershipListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Leadership listener must not be null");
		}
		return this.core.addListener(listener);
	}

	/**
	 * How long the local lease holds from now: the session is sure to live at least that long
	 * (docs/leadership-protocol.md, "The lease").
	 * @return the time left, or empty if the lease has run out or was never renewed (no candidacy)
	 */
	public Optional<Duration> leaseRemaining() {
		return this.core.leaseRemaining();
	}

	/**
	 * The leadership root that roles are lock paths under.
	 * @return for example {@code "/leaders"}, inside the client's namespace
	 */
	public String getRootPath() {
		return this.core.rootPath();
	}

	/**
	 * Leaves every candidacy ({@link Candidacy#leave()}: each term revoked with
	 * {@link RevocationReason#SHUTDOWN}, then its node deleted), then stops the election's threads
	 * and lease. The Curator client stays open. Idempotent.
	 */
	@Override
	public void close() {
		this.core.close();
	}

	@Override
	public String toString() {
		return "LeaderElection[" + this.core.rootPath() + ", " + this.core.candidacies().size() + " candidacies]";
	}

	/**
	 * Settings of a {@link LeaderElection}; {@link #build()} makes it. Not thread-safe.
	 */
	public static final class Builder {

		private final LockEngine engine;

		private String rootPath = DEFAULT_ROOT_PATH;

		private @Nullable String application;

		private @Nullable String instance;

		private @Nullable Executor listenerExecutor;

		private double leaseFactor = DEFAULT_LEASE_FACTOR;

		private Duration handoverTimeout = DEFAULT_HANDOVER_TIMEOUT;

		private Builder(LockEngine engine) {
			this.engine = engine;
		}

		/**
		 * The leadership root: roles are lock paths under it.
		 * @param rootPath an absolute ZooKeeper path inside the client's namespace, such as
		 * {@code "/leaders"}; checked when the election is built
		 * @return this builder
		 */
		public Builder rootPath(String rootPath) {
			this.rootPath = rootPath;
			return this;
		}

		/**
		 * Who this process is, as every candidate node says besides the host and process, so that
		 * {@link Candidate} and operators can tell who leads: one line such as
		 * {@code zklock host=web-2 pid=4711 app=billing instance=billing-1}. Unless set, the host and
		 * process only.
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
		 * Where listeners run. Each candidacy's listener calls run one at a time, in order, whatever the
		 * executor; several candidacies may use it at once. Unless set, zklock's own daemon threads
		 * ({@code zklock-leadership-events-N}), one per candidacy with listener calls to run, which end
		 * when idle and when the election closes; an executor given here is not shut down by the
		 * election.
		 * @param executor the executor, or {@code null} for zklock's own threads
		 * @return this builder
		 */
		public Builder listenerExecutor(@Nullable Executor executor) {
			this.listenerExecutor = executor;
			return this;
		}

		/**
		 * The lease factor f: the local lease lasts f × the negotiated session timeout after the send of
		 * the last renewal that was answered. Smaller is safer against a server clock that runs fast
		 * (the lease holds while no server clock runs more than 1/f times as fast as this process's)
		 * and revokes sooner when the ensemble stops answering.
		 * @param factor greater than 0 and less than 1; {@value LeaderElection#DEFAULT_LEASE_FACTOR}
		 * unless set
		 * @return this builder
		 * @throws IllegalArgumentException if {@code factor} is out of range
		 */
		public Builder leaseFactor(double factor) {
			if (!(factor > 0 && factor < 1)) {
				throw new IllegalArgumentException("Lease factor " + factor + " is invalid: use a number greater than 0 "
						+ "and less than 1, such as 0.8 (the lease must end before the server can expire the session)");
			}
			this.leaseFactor = factor;
			return this;
		}

		/**
		 * How long ending a term (yield, step down, leave, close) waits for its {@code onRevoked}
		 * listener calls to return before it deletes the term's node: the time leader-only work has to
		 * stop before the next candidate may lead. A revocation in jeopardy or with the session never
		 * waits.
		 * @param timeout zero or more; {@link Duration#ZERO} does not wait
		 * @return this builder
		 * @throws IllegalArgumentException if {@code timeout} is {@code null} or negative
		 */
		public Builder handoverTimeout(Duration timeout) {
			if (timeout == null || timeout.isNegative()) {
				throw new IllegalArgumentException("Handover timeout " + ((timeout != null) ? Durations.format(timeout)
						: "null") + " is invalid: use zero or more, such as Duration.ofSeconds(10)");
			}
			this.handoverTimeout = timeout;
			return this;
		}

		/**
		 * Builds the election; it uses the client at once (it follows its connection state) but sends
		 * nothing until a role is joined.
		 * @return the election
		 * @throws IllegalArgumentException if the leadership root is not a valid ZooKeeper path
		 */
		public LeaderElection build() {
			return new LeaderElection(this);
		}

	}

}
