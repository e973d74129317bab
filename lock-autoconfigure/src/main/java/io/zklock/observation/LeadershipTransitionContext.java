package io.zklock.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.zklock.leadership.RevocationReason;

/**
 * {@link Observation.Context} of one transition of a term of this instance, as zklock's Spring
 * support handles it: a grant (starting the role's leader-scoped work) or a revocation (stopping
 * it). Immutable.
 */
public class LeadershipTransitionContext extends Observation.Context {

	/** The transition of a grant, or of a term that resumed after jeopardy. */
	public static final String GRANTED = "granted";

	/** The transition of a revocation. */
	public static final String REVOKED = "revoked";

	private final String role;

	private final long fencingToken;

	private final String transition;

	private final @Nullable RevocationReason reason;

	/**
	 * Creates the context.
	 * @param role the role, such as {@code "billing-close"}
	 * @param fencingToken the term's fencing token
	 * @param transition {@link #GRANTED} or {@link #REVOKED}
	 * @param reason why the term was revoked, or {@code null} for a grant
	 */
	public LeadershipTransitionContext(String role, long fencingToken, String transition,
			@Nullable RevocationReason reason) {
		this.role = role;
		this.fencingToken = fencingToken;
		this.transition = transition;
		this.reason = reason;
	}

	/**
	 * The role.
	 * @return the role, such as {@code "billing-close"}
	 */
	public String getRole() {
		return this.role;
	}

	/**
	 * The term's fencing token.
	 * @return the token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * The transition.
	 * @return {@link #GRANTED} or {@link #REVOKED}
	 */
	public String getTransition() {
		return this.transition;
	}

	/**
	 * Why the term was revoked.
	 * @return the reason, or {@code null} for a grant
	 */
	public @Nullable RevocationReason getReason() {
		return this.reason;
	}

}
