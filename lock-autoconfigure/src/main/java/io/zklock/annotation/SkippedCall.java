package io.zklock.annotation;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockMode;

/**
 * A call of a {@link DistributedLock} or {@link DistributedSemaphore} method that did not run
 * because its lock was busy ({@code onFailure = SKIP}), as told to {@link SkippedCallListener}s.
 *
 * @param lockPath the lock path that was busy, such as {@code "orders/42"}
 * @param lockName the annotation's path, a label of bounded cardinality such as
 * {@code "orders"}
 * @param mode the requested lock mode, or {@code null} for a semaphore
 * @param waited how long the call waited before it was skipped
 * @param method the method, as {@code Type.method(Params)}
 */
public record SkippedCall(String lockPath, String lockName, @Nullable LockMode mode, Duration waited, String method) {

}
