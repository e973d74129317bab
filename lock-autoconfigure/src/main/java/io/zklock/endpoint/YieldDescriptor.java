package io.zklock.endpoint;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.CandidacyState;

/**
 * What {@code POST /actuator/leadership/{role}} did: this instance yielded its term of the role,
 * after the role's leader-scoped work stopped, and queued again at the back, so that another
 * candidate leads (with none, this instance is granted a new term).
 *
 * @param role the role
 * @param yielded whether a term was given up; {@code false} if this instance did not hold one
 * @param fencingToken the fencing token of the term given up, or {@code null} if none
 * @param state this instance's candidacy's state after the yield
 */
public record YieldDescriptor(String role, boolean yielded, @Nullable Long fencingToken, CandidacyState state) {

}
