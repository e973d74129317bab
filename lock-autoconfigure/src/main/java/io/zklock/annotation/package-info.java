/**
 * The annotations of zklock's Spring integration: {@link io.zklock.annotation.DistributedLock},
 * {@link io.zklock.annotation.DistributedSemaphore} and their policies, with the exceptions and
 * listeners a locked call may meet; and the leadership annotations
 * {@link io.zklock.annotation.LeaderOnly} (a method only the leader of a role runs) and
 * {@link io.zklock.annotation.LeaderScoped} (a lifecycle bean only the leader runs), with
 * {@link io.zklock.annotation.LeaderContext}.
 */
@NullMarked
package io.zklock.annotation;

import org.jspecify.annotations.NullMarked;
