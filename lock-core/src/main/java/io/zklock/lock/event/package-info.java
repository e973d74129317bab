/**
 * What happens to the locks of a {@link io.zklock.lock.LockEngine}, and what it holds: the
 * vocabulary of metrics, traces, the actuator endpoint and test recorders.
 * {@link io.zklock.lock.event.LockListener} hears each acquire, grant, release, doubt, loss, leak and
 * passed hold bound of a {@link io.zklock.lock.event.LockTarget} (a lock path in a mode, with its
 * name for metrics), registered with {@link io.zklock.lock.LockEngine#addListener}; a
 * {@link io.zklock.lock.event.HeldLock} is a snapshot of one hold
 * ({@link io.zklock.lock.ILockByCurator#heldLocks()}). Part of zklock's API, like
 * {@code io.zklock.lock}; it imports that package only, never the engine's machinery.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.lock.event;

import org.jspecify.annotations.NullMarked;
