package io.zklock.leadership;

/**
 * Why a {@link Term} stopped being active, as {@link LeadershipListener#onRevoked(Term, RevocationReason)}
 * and {@link Term#revocationReason()} tell it.
 *
 * <p>
 * Two reasons put a term in <em>jeopardy</em> (Chubby, Burrows, OSDI 2006 §2.8): it stops at once
 * but may resume, the same term with the same fencing token, once its lock node is confirmed to be
 * still the session's ({@link #isJeopardy()}). Every other reason ends the term for good; the
 * candidate then queues again, unless it stepped down or left. Three reasons are the
 * application's own ({@link #isVoluntary()}): the ones {@link Candidacy#yield(RevocationReason)} and
 * {@link Candidacy#stepDown(RevocationReason)} take.
 */
public enum RevocationReason {

	/**
	 * The client's connection to the ensemble was suspended: another process may lead by now.
	 * The term resumes after a reconnect with the same session, once its node is confirmed.
	 */
	CONNECTION_SUSPENDED(true, false),

	/**
	 * The election's local lease ran out: no reply from the ensemble confirmed the session for
	 * longer than the lease factor of the session timeout (a client frozen past its session, or a
	 * server that stopped answering), so the server may have ended the session although the client
	 * has not noticed. The term resumes once a reply renews the lease and its node is confirmed.
	 */
	LEASE_EXPIRED(true, false),

	/**
	 * The session ended (expired, or the client reconnected with a new one): the term's lock node
	 * is gone with it. The candidate queues again on the new session.
	 */
	SESSION_LOST(false, false),

	/**
	 * The term's lock node was found gone, or owned by another session, while the session lives:
	 * someone deleted it (an operator, a tool). The candidate queues again.
	 */
	NODE_DELETED(false, false),

	/** The application yielded the term ({@link Candidacy#yield()}): the candidate queues again at the back. */
	YIELDED(false, true),

	/**
	 * The application gave the term up because it cannot serve, such as while its readiness refuses
	 * traffic ({@link Candidacy#yield(RevocationReason)}, {@link Candidacy#stepDown(RevocationReason)}).
	 */
	UNHEALTHY(false, true),

	/** The candidacy left ({@link Candidacy#leave()}) or the election closed: an orderly shutdown. */
	SHUTDOWN(false, true);

	private final boolean jeopardy;

	private final boolean voluntary;

	RevocationReason(boolean jeopardy, boolean voluntary) {
		this.jeopardy = jeopardy;
		this.voluntary = voluntary;
	}

	/**
	 * Whether a term revoked for this reason is in jeopardy and may resume.
	 * @return {@code true} for {@link #CONNECTION_SUSPENDED} and {@link #LEASE_EXPIRED}
	 */
	public boolean isJeopardy() {
		return this.jeopardy;
	}

	/**
	 * Whether this is a reason the application gives itself.
	 * @return {@code true} for {@link #YIELDED}, {@link #UNHEALTHY} and {@link #SHUTDOWN}
	 */
	public boolean isVoluntary() {
		return this.voluntary;
	}

}
