package io.zklock.autoconfigure.leadership;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;
import io.zklock.leadership.event.LeaderChangedEvent;
import io.zklock.leadership.event.LeadershipGrantedEvent;
import io.zklock.leadership.event.LeadershipRevokedEvent;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes a role's transitions as Spring application events ({@code io.zklock.leadership.event}).
 */
final class ApplicationRoleEvents implements RoleEvents {

	private final ApplicationEventPublisher publisher;

	ApplicationRoleEvents(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void granted(Candidacy candidacy, Term term) {
		this.publisher.publishEvent(new LeadershipGrantedEvent(candidacy, term));
	}

	@Override
	public void revoked(Candidacy candidacy, Term term, RevocationReason reason) {
		this.publisher.publishEvent(new LeadershipRevokedEvent(candidacy, term, reason));
	}

	@Override
	public void leaderChanged(Candidacy candidacy, String role, @Nullable Candidate leader) {
		this.publisher.publishEvent(new LeaderChangedEvent(candidacy, role, leader));
	}

}
