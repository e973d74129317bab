package io.zklock.endpoint;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.CandidacyState;

/**
 * One role, as {@code GET /actuator/leadership} and {@code GET /actuator/leadership/{role}} show
 * it: this instance's candidacy and term, who leads, and the role's candidates of every instance.
 *
 * @param role the role, such as {@code "billing-close"}
 * @param state this instance's candidacy's state, or {@code null} if this instance is no candidate
 * for the role
 * @param leader whether this instance leads the role now (its term is active)
 * @param term the term this instance holds, active or in jeopardy, or {@code null} if none
 * @param currentLeader who leads, as read from ZooKeeper now, or {@code null} if the role has no
 * candidate (or the read failed)
 * @param candidates the role's candidates as ZooKeeper has them now, the leader first, then in the
 * order they will lead; {@code null} if the read failed
 * @param candidatesError why the candidates could not be read (ZooKeeper unreachable), or
 * {@code null}
 */
public record RoleDescriptor(String role, @Nullable CandidacyState state, boolean leader, @Nullable TermDescriptor term,
		@Nullable CandidateDescriptor currentLeader, @Nullable List<CandidateDescriptor> candidates,
		@Nullable String candidatesError) {

}
