package io.zklock.leadership.event;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;

/**
 * The leader of a role changed, as ZooKeeper has it: told to followers and to the leader alike,
 * read from the leader's lock node (host, process, application, instance), so a follower can say
 * who leads.
 */
public class LeaderChangedEvent extends LeadershipEvent {

	private static final long serialVersionUID = 1L;

	private final transient @Nullable Candidate leader;

	/**
	 * Creates the event.
	 * @param candidacy this application's candidacy for the role
	 * @param role the role
	 * @param leader the new leader, or {@code null} if the role has no candidate now
	 */
	public LeaderChangedEvent(Candidacy candidacy, String role, @Nullable Candidate leader) {
		super(candidacy, role);
		this.leader = leader;
	}

	/**
	 * The new leader.
	 * @return the leader (possibly this application, {@link Candidate#thisClient()}), or empty if
	 * the role has no candidate now
	 */
	public Optional<Candidate> getLeader() {
		return Optional.ofNullable(this.leader);
	}

	@Override
	public String toString() {
		return "LeaderChangedEvent[role '" + getRole() + "', leader "
				+ ((this.leader != null) ? this.leader.describe() : "none") + "]";
	}

}
