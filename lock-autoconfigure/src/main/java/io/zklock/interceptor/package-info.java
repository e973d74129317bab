/**
 * The method interception behind {@link io.zklock.annotation.DistributedLock} and
 * {@link io.zklock.annotation.DistributedSemaphore}: the advisor, the lock key resolution and the
 * locked call for each return kind (plain, future, reactive, suspend); and behind
 * {@link io.zklock.annotation.LeaderOnly}: the advisor that runs a method only while this instance
 * leads its role.
 */
@NullMarked
package io.zklock.interceptor;

import org.jspecify.annotations.NullMarked;
