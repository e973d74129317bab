package io.zklock.autoconfigure.leadership;

import java.time.Duration;

import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * Wraps what zklock's Spring support does at each transition of a term of this instance: starting
 * the role's leader-scoped beans at a grant, stopping them at a revocation. zklock's meters (the
 * time from a revocation to the stopped work) and observations (one per transition) are such
 * observers; an application may add one as a bean. Observers nest in bean order, the first
 * outermost, on the election's listener thread of the role (one transition of a role at a time).
 * An observer must run the given work exactly once, on the calling thread, and return after it.
 */
public interface LeadershipTransitionObserver {

	/**
	 * Wraps the start of a granted (or resumed) term's leader-scoped work.
	 * @param term the term, active when it was granted
	 * @param startWork starts the work; run it once
	 */
	default void granted(Term term, Runnable startWork) {
		startWork.run();
	}

	/**
	 * Wraps the stop of a revoked term's leader-scoped work.
	 * @param term the term, no longer active
	 * @param reason why it was revoked
	 * @param sinceRevocation how long ago the revocation was noticed when this call began: from
	 * the suspension Curator reported, for {@link RevocationReason#CONNECTION_SUSPENDED} and
	 * {@link RevocationReason#SESSION_LOST} after one, else from the moment zklock's Spring support
	 * heard of it (zero)
	 * @param stopWork stops the work; run it once
	 */
	default void revoked(Term term, RevocationReason reason, Duration sinceRevocation, Runnable stopWork) {
		stopWork.run();
	}

}
