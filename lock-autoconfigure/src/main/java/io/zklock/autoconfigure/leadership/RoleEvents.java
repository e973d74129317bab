package io.zklock.autoconfigure.leadership;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * Publishes the events of one transition of a role, as events of some kind: Spring application
 * events ({@link ApplicationRoleEvents}) or Spring Integration's leader events
 * ({@link IntegrationRoleEvents}). Called on the election's listener thread of the role.
 */
interface RoleEvents {

	/** This instance was granted {@code term}; its leader-scoped beans started. */
	void granted(Candidacy candidacy, Term term);

	/** {@code term} was revoked; its leader-scoped beans stopped. */
	void revoked(Candidacy candidacy, Term term, RevocationReason reason);

	/** The role's leader changed, as ZooKeeper has it; {@code leader} is {@code null} if none. */
	void leaderChanged(Candidacy candidacy, String role, @Nullable Candidate leader);

}
