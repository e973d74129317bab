/**
 * The machinery of zklock's lock engine: the acquire protocol (an attempt of rounds, each a
 * lock node from its create to its grant, on Curator's background API), the watch on the node
 * it waits for (set on the ZooKeeper handle, so that its events carry their zxid, the fencing
 * token), the release that hands an exclusive lock on without a listing, local handoff of a held
 * node to the engine's own waiters (lock cohorting), the nodes of one protected create (see
 * docs/lock-protocol.md), the session guard that follows the connection state, the namespace gate
 * that has the client's namespace made before acquires send anything, the holds and their
 * reentrancy, node deletion and semaphore leases. Internal: not part of zklock's API and no
 * compatibility promise, although the automatic module {@code io.zklock.core} exports it as it
 * exports every package. {@code io.zklock.lock.LockEngine} hands each call to
 * {@link io.zklock.lock.internal.ClientLocks}. It imports the API ({@code io.zklock.lock}) only,
 * never {@code io.zklock.lock.inspection}.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.lock.internal;

import org.jspecify.annotations.NullMarked;
