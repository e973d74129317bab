/**
 * The machinery of zklock's leader election: the candidacy thread that queues for a role through a
 * lock engine of the election's own, the terms and their reconciliation from the connection, the
 * engine's state of the hold, the confirmation of the node and the local lease (see
 * docs/leadership-protocol.md), the watch on the leader node, and the listener queues. Internal: not
 * part of zklock's API and no compatibility promise. {@code io.zklock.leadership.LeaderElection}
 * hands each call to {@link io.zklock.leadership.internal.ElectionCore}. It is built on the lock
 * engine's API ({@code io.zklock.lock}) and its inspection ({@code io.zklock.lock.inspection}),
 * never on its machinery.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.leadership.internal;

import org.jspecify.annotations.NullMarked;
