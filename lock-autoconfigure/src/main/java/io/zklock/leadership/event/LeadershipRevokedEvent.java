package io.zklock.leadership.event;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * This application no longer leads a role: its term was revoked. Published after the role's
 * leader-scoped beans stopped; {@link Term#isActive()} was {@code false} before. A revocation in
 * jeopardy ({@link RevocationReason#isJeopardy()}) may be followed by a
 * {@link LeadershipGrantedEvent} of the same term when it resumes.
 */
public class LeadershipRevokedEvent extends LeadershipEvent {

	private static final long serialVersionUID = 1L;

	private final transient Term term;

	/** Why the term was revoked. */
	private final RevocationReason reason;

	/**
	 * Creates the event.
	 * @param candidacy this application's candidacy for the role
	 * @param term the revoked term
	 * @param reason why it was revoked
	 */
	public LeadershipRevokedEvent(Candidacy candidacy, Term term, RevocationReason reason) {
		super(candidacy, term.role());
		this.term = term;
		this.reason = reason;
	}

	/**
	 * The revoked term.
	 * @return the term
	 */
	public Term getTerm() {
		return this.term;
	}

	/**
	 * Why the term was revoked.
	 * @return the reason
	 */
	public RevocationReason getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "LeadershipRevokedEvent[role '" + getRole() + "', fencing token " + this.term.fencingToken() + ", "
				+ this.reason + "]";
	}

}
