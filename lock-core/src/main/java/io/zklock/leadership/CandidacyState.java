package io.zklock.leadership;

/**
 * Where a {@link Candidacy} stands, as a health indicator or an endpoint shows it.
 */
public enum CandidacyState {

	/** Queued (or queueing, or waiting for the connection) behind the leader: no term. */
	FOLLOWER,

	/** Holds an active term: leader-only work may run. */
	LEADER,

	/**
	 * Holds a term that is not active: granted but not yet confirmed, or revoked for a reason in
	 * jeopardy ({@link RevocationReason#isJeopardy()}) and waiting to resume or to end.
	 * Leader-only work must not run.
	 */
	JEOPARDY,

	/** Stepped down ({@link Candidacy#stepDown(RevocationReason)}): not queued until {@link Candidacy#rejoin()}. */
	STOOD_DOWN,

	/** Left ({@link Candidacy#leave()}), or its election or Curator client was closed: final. */
	LEFT

}
