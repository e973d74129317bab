package io.zklock.leadership;

import org.jspecify.annotations.Nullable;

/**
 * Hears of the terms and leaders of a role: register it with
 * {@link LeaderElection#join(String, LeadershipListener)}, {@link Candidacy#addListener} or, for
 * every role, {@link LeaderElection#addListener}. Every method has an empty default.
 *
 * <p>
 * Listeners run on the election's listener executor, one queue per candidacy, in the order things
 * happened, never on the thread that noticed. By the time a listener runs, the state it reports
 * has already changed ({@link Term#isActive()} is {@code false} before {@link #onRevoked} runs), and
 * it may have changed again: read the term, not a field of your own. A listener that blocks delays
 * only the later listener calls of its candidacy, never a revocation or the next grant
 * (docs/leadership-protocol.md, "Revocation never waits for user code"); still, stop leader-only
 * work promptly, since the next leader may start as soon as the term's node is gone. An exception
 * thrown by a listener is logged and otherwise ignored.
 *
 * <p>
 * Each {@code onGranted} of a term is followed by exactly one {@code onRevoked} of it; a term
 * revoked in jeopardy that resumes is granted (and later revoked) again; one that ends while in
 * jeopardy hears nothing more ({@link Term#isEnded()} tells).
 */
public interface LeadershipListener {

	/**
	 * This process leads: {@code term} became active (granted, or resumed after jeopardy).
	 * @param term the term, active when this was decided
	 */
	default void onGranted(Term term) {
	}

	/**
	 * This process no longer leads: {@code term} stopped being active.
	 * @param term the term, no longer active
	 * @param reason why; {@link RevocationReason#isJeopardy()} tells whether it may resume
	 */
	default void onRevoked(Term term, RevocationReason reason) {
	}

	/**
	 * The role's leader changed, as ZooKeeper has it: another candidate's node (or this process's)
	 * is now first in the role's queue, or none is left. Told to followers and leaders alike, and
	 * read from the leader's node, not inferred from other events.
	 * @param role the role
	 * @param leader the new leader, or {@code null} if the role has no candidate now
	 */
	default void onLeaderChanged(String role, @Nullable Candidate leader) {
	}

}
