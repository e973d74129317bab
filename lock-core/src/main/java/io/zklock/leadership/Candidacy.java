package io.zklock.leadership;

import java.time.Duration;
import java.util.Optional;

/**
 * This process's candidacy for one role, from {@link LeaderElection#join(String)}: a lock node in
 * the role's queue, kept by a thread of zklock's own, that leads when no node precedes it. It
 * queues again by itself after a term ends (also on a new session after the old one expired), until
 * it steps down or leaves.
 *
 * <pre class="code">
 * Candidacy candidacy = election.join("billing-close", new LeadershipListener() {
 *     public void onGranted(Term term) { closer.start(term); }
 *     public void onRevoked(Term term, RevocationReason reason) { closer.stop(); }
 * });
 * …
 * candidacy.leave();   // at shutdown: revokes, then deletes the node so the next candidate leads at once
 * </pre>
 *
 * <p>
 * Implementations are thread-safe. Only {@link #awaitTerm(Duration)} and the methods that end a
 * term ({@link #yield}, {@link #stepDown}, {@link #leave}) block, the latter at most for the
 * election's handover timeout plus one round trip.
 */
public interface Candidacy extends AutoCloseable {

	/**
	 * The role this candidacy is for.
	 * @return the role as given to {@code join}, without a leading {@code '/'}
	 */
	String role();

	/**
	 * Where this candidacy stands now.
	 * @return the state
	 */
	CandidacyState state();

	/**
	 * Whether this process leads the role now: it holds a term and the term is active.
	 * @return {@code true} while {@link #currentTerm()} is present and {@link Term#isActive()}
	 */
	boolean isLeader();

	/**
	 * The term this candidacy holds, active or in jeopardy.
	 * @return the term, or empty if it holds none (a follower, or between terms)
	 */
	Optional<Term> currentTerm();

	/**
	 * Who leads the role, as this candidacy last read it from ZooKeeper: it reads the leader's node
	 * when it joins, after each change its watch on that node reports, after each of its own terms
	 * and after each reconnect. Never calls ZooKeeper itself; for a fresh read use
	 * {@link LeaderElection#leader(String)}.
	 * @return the leader (possibly this process), or empty if the role has none or it was not read
	 * yet
	 */
	Optional<Candidate> leader();

	/**
	 * Waits until this candidacy leads, or the wait runs out.
	 * @param timeout the longest wait, on {@link System#nanoTime()}; {@link Duration#ZERO} looks once
	 * @return the active term, or empty if the wait ran out or the candidacy left
	 * @throws InterruptedException if the calling thread is interrupted while waiting
	 * @throws IllegalArgumentException if {@code timeout} is {@code null} or negative
	 */
	Optional<Term> awaitTerm(Duration timeout) throws InterruptedException;

	/**
	 * Gives up the current term and queues again at the back of the role's queue, so that the next
	 * candidate leads; with no other candidate this process is granted a new term, with a new token.
	 * Same as {@code yield(RevocationReason.YIELDED)}.
	 * @return {@code true} if a term was given up, {@code false} if this candidacy held none
	 * @see #yield(RevocationReason)
	 */
	boolean yield();

	/**
	 * Gives up the current term for a reason of the application's and queues again at the back. The
	 * term stops at once ({@link Term#isActive()} turns {@code false} on this thread), the listeners
	 * hear {@link LeadershipListener#onRevoked(Term, RevocationReason)}, this call waits for those
	 * listener calls to return, at most the election's handover timeout (not at all when called from a
	 * listener), and then deletes the term's node, so that the next candidate is granted within a round
	 * trip.
	 * @param reason {@link RevocationReason#YIELDED} or {@link RevocationReason#UNHEALTHY}
	 * @return {@code true} if a term was given up, {@code false} if this candidacy held none (it stays
	 * queued)
	 * @throws IllegalArgumentException if {@code reason} is {@code null} or not one of those two
	 */
	boolean yield(RevocationReason reason);

	/**
	 * Stops being a candidate until {@link #rejoin()}: gives up the current term as
	 * {@link #yield(RevocationReason)} does, or leaves the queue if it holds none, and does not queue
	 * again. For an application that cannot serve for a while (its readiness refuses traffic): unlike
	 * a yield, it is not granted again while it is the only candidate. Does nothing if already stood
	 * down.
	 * @param reason {@link RevocationReason#UNHEALTHY}, {@link RevocationReason#YIELDED} or
	 * {@link RevocationReason#SHUTDOWN}
	 * @throws IllegalArgumentException if {@code reason} is {@code null} or not one of those
	 * @throws IllegalStateException if the candidacy left
	 */
	void stepDown(RevocationReason reason);

	/**
	 * Queues again after {@link #stepDown(RevocationReason)}, at the back of the role's queue. Does
	 * nothing if the candidacy did not step down.
	 * @throws IllegalStateException if the candidacy left
	 */
	void rejoin();

	/**
	 * Leaves the role's candidates for good: gives up the current term
	 * ({@link RevocationReason#SHUTDOWN}) as {@link #yield(RevocationReason)} does, deletes its node
	 * (the next candidate leads within a round trip), stops its thread and removes its watches.
	 * Idempotent. The election may then be joined for the role again.
	 */
	void leave();

	/**
	 * Registers a listener for this candidacy's role. If this candidacy leads now, the listener first
	 * hears {@link LeadershipListener#onGranted(Term)} of the current term, and if it knows the leader,
	 * {@link LeadershipListener#onLeaderChanged(String, Candidate)}, so that it needs no other look at
	 * the state.
	 * @param listener the listener
	 * @return a callback that unregisters the listener
	 * @throws IllegalArgumentException if {@code listener} is {@code null}
	 */
	Runnable addListener(LeadershipListener listener);

	/**
	 * Same as {@link #leave()}.
	 */
	@Override
	default void close() {
		leave();
	}

}
