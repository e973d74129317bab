package io.zklock.leadership.internal;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.ReleaseResult;
import org.jspecify.annotations.Nullable;

/**
 * A term of this process: the hold of a role's lock node that its candidacy was granted, with where
 * it stands. Its phase changes only under its candidacy's monitor; whether it is active is computed
 * on each call from the phase and the live sources ({@link Sources}). Thread-safe.
 */
final class HeldTerm implements Term {

	/** What a term's activity is computed from, besides its phase: its candidacy. */
	interface Sources {

		/** The role. */
		String role();

		/**
		 * Whether the live sources hold for the term: connected, its session the lease's and the lease
		 * unexpired, its hold held by the engine.
		 */
		boolean isLive(HeldTerm term);

		/** Which live source fails for the term, or {@code null} if none does. */
		@Nullable RevocationReason whyNotLive(HeldTerm term);

		/** Has the candidacy reconcile the term's phase with its sources soon, on another thread. */
		void reconcileSoon();

	}

	/** Where a term stands. */
	enum Phase {

		/** Granted, not yet active: waiting for a lease or for its node to be confirmed. */
		PENDING,

		/** Active while its live sources hold. */
		ACTIVE,

		/** Revoked for a reason in jeopardy: may resume. */
		JEOPARDY,

		/** Over for good. */
		ENDED

	}

	private final Sources sources;

	private final LockHandle hold;

	private final Instant since = Instant.now();

	private final TermLock lock;

	private final List<Consumer<LockHandle>> lossListeners = new CopyOnWriteArrayList<>();

	/** Written under the candidacy's monitor. */
	private volatile Phase phase = Phase.PENDING;

	/** Why it is not active; written under the candidacy's monitor. */
	private volatile @Nullable RevocationReason reason;

	/** The session that owns its node, 0 until confirmed; written under the candidacy's monitor. */
	private volatile long sessionId;

	/** The epoch at which its node was last confirmed the session's, -1 if never; candidacy's monitor. */
	long confirmedEpoch;

	/** Whether it was ended by the application (the caller deletes the node); candidacy's monitor. */
	boolean voluntary;

	/** Whether its hold was released after its end; candidacy's monitor. */
	boolean released;

	/** Whether the term was ever active (listeners heard of it); candidacy's monitor. */
	boolean announced;

	/**
	 * @param sessionId the session the grant was decided on, if known for sure, else 0
	 * @param confirmedEpoch the epoch the grant counts as confirmed at, or -1
	 */
	HeldTerm(Sources sources, LockHandle hold, long sessionId, long confirmedEpoch) {
		this.sources = sources;
		this.hold = hold;
		this.sessionId = sessionId;
		this.confirmedEpoch = confirmedEpoch;
		this.lock = new TermLock(this);
	}

	LockHandle hold() {
		return this.hold;
	}

	Phase phase() {
		return this.phase;
	}

	long sessionId() {
		return this.sessionId;
	}

	/** Moves to a phase; called under the candidacy's monitor. */
	void moveTo(Phase next, @Nullable RevocationReason why) {
		this.phase = next;
		this.reason = why;
	}

	/** Sets the session its node was confirmed to belong to; under the candidacy's monitor. */
	void confirmedOn(long session, long epoch) {
		this.sessionId = session;
		this.confirmedEpoch = epoch;
	}

	List<Consumer<LockHandle>> lossListeners() {
		return this.lossListeners;
	}

	@Override
	public String role() {
		return this.sources.role();
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken();
	}

	@Override
	public Instant since() {
		return this.since;
	}

	@Override
	public boolean isActive() {
		if (this.phase != Phase.ACTIVE) {
			return false;
		}
		if (this.sources.isLive(this)) {
			return true;
		}
		// a source changed before its event was handled (a lease that ran out while frozen): the
		// answer is false now, and the revocation follows on the timer
		this.sources.reconcileSoon();
		return false;
	}

	@Override
	public boolean isEnded() {
		return this.phase == Phase.ENDED;
	}

	@Override
	public Optional<RevocationReason> revocationReason() {
		if (this.phase == Phase.ACTIVE) {
			return isActive() ? Optional.empty() : Optional.ofNullable(this.sources.whyNotLive(this));
		}
		return Optional.ofNullable(this.reason);
	}

	@Override
	public LockHandle lock() {
		return this.lock;
	}

	@Override
	public String toString() {
		return "Term[role '" + role() + "', fencing token " + fencingToken() + ", since " + this.since + ", "
				+ this.phase + ((this.reason != null) ? " (" + this.reason + ")" : "") + "]";
	}

	/**
	 * A term's hold as a {@link LockHandle} ({@code Term.lock()}), for what takes a lock: its lock path
	 * is the role, its token the term's, and it is held while the term is active. It cannot be
	 * released: a term ends through its candidacy. Thread-safe.
	 */
	static final class TermLock implements LockHandle {

		private final HeldTerm term;

		TermLock(HeldTerm term) {
			this.term = term;
		}

		@Override
		public String lockPath() {
			return this.term.role();
		}

		@Override
		public String lockName() {
			return this.term.role();
		}

		@Override
		public String nodePath() {
			return this.term.hold().nodePath();
		}

		@Override
		public HoldOwner owner() {
			return HoldOwner.CALL;
		}

		@Override
		public LockMode mode() {
			return LockMode.EXCLUSIVE;
		}

		@Override
		public long fencingToken() {
			return this.term.fencingToken();
		}

		@Override
		public Instant acquiredAt() {
			return this.term.since();
		}

		@Override
		public boolean isHeld() {
			return this.term.isActive();
		}

		@Override
		public LockState state() {
			if (this.term.isActive()) {
				return LockState.HELD;
			}
			if (!this.term.isEnded()) {
				return LockState.IN_DOUBT;
			}
			RevocationReason reason = this.term.revocationReason().orElse(RevocationReason.SESSION_LOST);
			return reason.isVoluntary() ? LockState.RELEASED : LockState.LOST;
		}

		@Override
		public Runnable onLost(Consumer<LockHandle> listener) {
			if (listener == null) {
				throw new IllegalArgumentException("Loss listener of the term of role '" + lockPath() + "' must not be null");
			}
			this.term.lossListeners().add(listener);
			if (!isHeld()) {
				listener.accept(this);
			}
			return () -> this.term.lossListeners().remove(listener);
		}

		@Override
		public ReleaseResult release() {
			throw new UnsupportedOperationException("The lock of a term of role '" + lockPath() + "' (fencing token "
					+ fencingToken() + ") is not released through its handle: end the term with the candidacy's yield(), "
					+ "stepDown(reason) or leave()");
		}

		@Override
		public String toString() {
			return "LockHandle[term of role '" + lockPath() + "', fencing token " + fencingToken() + ", " + state() + "]";
		}

	}

}
