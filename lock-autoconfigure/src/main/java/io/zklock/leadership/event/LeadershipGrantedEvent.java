package io.zklock.leadership.event;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Term;

/**
 * This application leads a role: a term was granted, or resumed after jeopardy (the same term,
 * with the same fencing token). Published after the role's leader-scoped beans started. The term
 * may have been revoked again by the time a listener runs: check {@link Term#isActive()} before
 * leader-only work, and pass {@link Term#fencingToken()} to what you write.
 */
public class LeadershipGrantedEvent extends LeadershipEvent {

	private static final long serialVersionUID = 1L;

	private final transient Term term;

	/**
	 * Creates the event.
	 * @param candidacy this application's candidacy for the role
	 * @param term the granted term
	 */
	public LeadershipGrantedEvent(Candidacy candidacy, Term term) {
		super(candidacy, term.role());
		this.term = term;
	}

	/**
	 * The granted term.
	 * @return the term
	 */
	public Term getTerm() {
		return this.term;
	}

	@Override
	public String toString() {
		return "LeadershipGrantedEvent[role '" + getRole() + "', fencing token " + this.term.fencingToken() + "]";
	}

}
