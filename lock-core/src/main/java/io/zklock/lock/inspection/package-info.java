/**
 * What ZooKeeper has of zklock's locks and sessions, for operations (the actuator's locks
 * endpoint, a client's start-up) and tests. A lock path's queue:
 * {@link io.zklock.lock.inspection.LockQueueInspector} reads it,
 * {@link io.zklock.lock.inspection.LockQueue} and {@link io.zklock.lock.inspection.QueuedNode} are
 * what it reads, holders first, of every process (zklock's and plain Curator's lock nodes alike).
 * A session's timeout: {@link io.zklock.lock.inspection.SessionTimeoutCheck} warns when the servers
 * granted another than the client asked for, since a lock lives as long as its session. It imports
 * the API and the machinery ({@code io.zklock.lock.internal}); the machinery imports nothing of it.
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.lock.inspection;

import org.jspecify.annotations.NullMarked;
