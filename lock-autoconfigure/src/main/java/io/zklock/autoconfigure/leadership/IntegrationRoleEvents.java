package io.zklock.autoconfigure.leadership;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.event.DefaultLeaderEventPublisher;
import org.springframework.integration.leader.event.LeaderEventPublisher;

/**
 * Publishes a role's grants and revocations as Spring Integration's leader events
 * ({@code OnGrantedEvent}, {@code OnRevokedEvent}), as its {@code LeaderInitiator}s do, so that an
 * application written for them (its {@code @EventListener}s, and the
 * {@code SmartLifecycleRoleController} that starts and stops the endpoints of a role) works with
 * zklock's leadership unchanged. The events' source is the candidacy, their {@link Context} is over
 * it. Spring Integration has no event for a leader change. Loaded only with Spring Integration on
 * the class path.
 */
final class IntegrationRoleEvents implements RoleEvents {

	private final LeaderEventPublisher publisher;

	IntegrationRoleEvents(ApplicationEventPublisher publisher) {
		this.publisher = new DefaultLeaderEventPublisher(publisher);
	}

	@Override
	public void granted(Candidacy candidacy, Term term) {
		this.publisher.publishOnGranted(candidacy, new CandidacyContext(candidacy), term.role());
	}

	@Override
	public void revoked(Candidacy candidacy, Term term, RevocationReason reason) {
		this.publisher.publishOnRevoked(candidacy, new CandidacyContext(candidacy), term.role());
	}

	@Override
	public void leaderChanged(Candidacy candidacy, String role, @Nullable Candidate leader) {
		// Spring Integration has no such event
	}

	/**
	 * Spring Integration's view of a candidacy: whether it leads now, and a yield.
	 */
	private record CandidacyContext(Candidacy candidacy) implements Context {

		@Override
		public boolean isLeader() {
			return this.candidacy.isLeader();
		}

		@Override
		public void yield() {
			this.candidacy.yield();
		}

		@Override
		public String getRole() {
			return this.candidacy.role();
		}

		@Override
		public String toString() {
			return "zklock " + this.candidacy;
		}

	}

}
