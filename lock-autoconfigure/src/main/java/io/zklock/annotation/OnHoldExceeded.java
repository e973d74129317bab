package io.zklock.annotation;

/**
 * What zklock does when a {@link DistributedLock} call holds its lock past
 * {@link DistributedLock#holdAtMost()} ({@link DistributedLock#onHoldExceeded()}, or
 * {@code zklock.on-hold-exceeded} for every call). Whatever the policy, the breach is reported
 * first (a WARN naming the lock, the method and the holder thread with its stack, the
 * {@code zklock.hold.exceeded} meter, {@link io.zklock.lock.LockListener#onHoldExceeded}), and
 * the lock is never released while the call's work may still run: a bound on a hold is an
 * alarm, not a lease.
 */
public enum OnHoldExceeded {

	/**
	 * Use {@code zklock.on-hold-exceeded} ({@link #WARN} unless set). Only valid on the
	 * annotation.
	 */
	DEFAULT,

	/**
	 * Report it, nothing more: the call runs on and keeps its lock until it ends.
	 */
	WARN,

	/**
	 * Report it and interrupt the thread running the method, if one still runs it: the caller's
	 * thread of a method that returns a plain value; for a method that returns a
	 * {@code CompletionStage}, {@code Mono} or {@code Flux}, only while the method itself has
	 * not returned yet (its later work runs on threads zklock does not know). The method decides
	 * what the interrupt means; the lock is released when it returns.
	 */
	INTERRUPT,

	/**
	 * Report it and cancel the call: a {@code CompletionStage} method's stage (the caller's
	 * completes with {@link HoldExceededException}) or a {@code Mono}/{@code Flux} method's
	 * publisher (its subscriber gets {@link HoldExceededException}); a method that returns a
	 * plain value is interrupted as with {@link #INTERRUPT}, which is how a running Java call is
	 * cancelled. Since nothing tells when cancelled work stops, a cancelled stage or publisher
	 * keeps its lock for {@code zklock.hold-after-cancel} more, then lets it go with a WARN.
	 */
	CANCEL

}
