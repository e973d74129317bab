/**
 * zklock behind Spring Integration's {@code LockRegistry}: {@link io.zklock.integration.ZkLockRegistry}
 * hands out thread-owned, reentrant locks on ZooKeeper whose loss every Spring Integration
 * consumer notices (aggregator, {@code LockRequestHandlerAdvice},
 * {@code LockRegistryLeaderInitiator}), with the fencing token of each hold.
 *
 * <p>
 * Types of this package are non-null unless marked {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package io.zklock.integration;

import org.jspecify.annotations.NullMarked;
