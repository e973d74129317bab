/**
 * The annotations of zklock's Spring integration: {@link io.zklock.annotation.DistributedLock},
 * {@link io.zklock.annotation.DistributedSemaphore} and their policies, with the exceptions and
 * listeners a locked call may meet.
 */
@NullMarked
package io.zklock.annotation;

import org.jspecify.annotations.NullMarked;
