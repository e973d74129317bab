package io.zklock.leadership.event;

import io.zklock.leadership.Candidacy;

import org.springframework.context.ApplicationEvent;

/**
 * An event of this application's candidacy for a role; its source is the {@link Candidacy}, which
 * can yield, step down or tell the current state. Immutable.
 */
public abstract class LeadershipEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	/** The role the event is about. */
	private final String role;

	/**
	 * Creates an event.
	 * @param candidacy this application's candidacy for the role
	 * @param role the role
	 */
	protected LeadershipEvent(Candidacy candidacy, String role) {
		super(candidacy);
		this.role = role;
	}

	/**
	 * The candidacy the event is about.
	 * @return the candidacy
	 */
	public Candidacy getCandidacy() {
		return (Candidacy) getSource();
	}

	/**
	 * The role.
	 * @return the role, such as {@code "billing-close"}
	 */
	public String getRole() {
		return this.role;
	}

}
