package io.zklock.annotation;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockMode;

/**
 * A call of an annotated method that did not run, as told to {@link SkippedCallListener}s: a
 * {@link DistributedLock} or {@link DistributedSemaphore} method whose lock was busy
 * ({@code onFailure = SKIP}), or a {@link LeaderOnly} method called while this instance did not
 * lead its role.
 *
 * @param lockPath the lock path that was busy, such as {@code "orders/42"}; for a
 * {@link Reason#NOT_LEADER} call, the role, such as {@code "billing-close"}
 * @param lockName the annotation's path, a label of bounded cardinality such as
 * {@code "orders"}; for a {@link Reason#NOT_LEADER} call, the role
 * @param mode the requested lock mode, or {@code null} for a semaphore and a leader-only call
 * @param waited how long the call waited before it was skipped; zero for a leader-only call, which
 * does not wait
 * @param method the method, as {@code Type.method(Params)}
 * @param reason why the call was skipped
 */
public record SkippedCall(String lockPath, String lockName, @Nullable LockMode mode, Duration waited, String method,
		Reason reason) {

	/**
	 * A call skipped because its lock or permit was busy: {@link Reason#LOCK_BUSY} with a mode,
	 * {@link Reason#NO_PERMIT} without one.
	 * @param lockPath the lock path that was busy, such as {@code "orders/42"}
	 * @param lockName the annotation's path, such as {@code "orders"}
	 * @param mode the requested lock mode, or {@code null} for a semaphore
	 * @param waited how long the call waited before it was skipped
	 * @param method the method, as {@code Type.method(Params)}
	 */
	public SkippedCall(String lockPath, String lockName, @Nullable LockMode mode, Duration waited, String method) {
		this(lockPath, lockName, mode, waited, method, (mode != null) ? Reason.LOCK_BUSY : Reason.NO_PERMIT);
	}

	/**
	 * Why a call was skipped.
	 */
	public enum Reason {

		/** A {@link DistributedLock} call's lock was busy for its whole wait. */
		LOCK_BUSY,

		/** A {@link DistributedSemaphore} call got no permit within its wait. */
		NO_PERMIT,

		/** A {@link LeaderOnly} call ran while this instance held no active term of its role. */
		NOT_LEADER

	}

}
