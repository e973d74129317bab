/**
 * zklock's leader election, on its lock protocol: a role is an exclusive hold on a lock path under
 * the leadership root, a term is that hold, and the term's fencing token is the hold's.
 * {@link io.zklock.leadership.LeaderElection} joins roles ({@link io.zklock.leadership.Candidacy}),
 * {@link io.zklock.leadership.Term} says whether this process may act as leader now,
 * {@link io.zklock.leadership.LeadershipListener} hears grants, revocations
 * ({@link io.zklock.leadership.RevocationReason}) and leader changes, and
 * {@link io.zklock.leadership.Candidate} says who leads. No Spring dependency. Why a term has one
 * fenced writer: docs/leadership-protocol.md; usage: docs/leadership.md.
 *
 * <p>
 * Every type of this package is thread-safe unless its documentation says otherwise. Types of this
 * package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.leadership;

import org.jspecify.annotations.NullMarked;
