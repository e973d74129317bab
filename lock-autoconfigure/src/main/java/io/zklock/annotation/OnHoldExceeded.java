package io.zklock.annotation;

/**
 * What zklock does when a {@link DistributedLock} call holds its lock past
 * {@link DistributedLock#holdAtMost()} ({@link DistributedLock#onHoldExceeded()}, or
 * {@code zklock.on-hold-exceeded} for every call). Whatever the policy, the breach is reported
 * first (a WARN naming the lock, the method and the holder thread with its stack, the
 * {@code zklock.hold.exceeded} meter, {@link io.zklock.lock.event.LockListener#onHoldExceeded}), and
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
	 * Report it and cancel the call. A {@code CompletableFuture} method's caller gets its stage
	 * completed with {@link HoldExceededException} at once, and the lock stays until the
	 * method's own stage completes (cancelling a {@code CompletableFuture} stops nothing behind
	 * it, and its completion is the only sign that the work has ended). A {@code Mono} method's
	 * subscriber gets {@link HoldExceededException} and the {@code Mono} runs on to its own end,
	 * which releases the lock. A {@code Flux} method's publisher is cancelled (its subscriber gets
	 * {@link HoldExceededException}), and so is the stage of a method whose caller gets the
	 * method's own stage; since nothing tells
	 * when such cancelled work stops, the lock is kept {@code zklock.hold-after-cancel} more,
	 * then let go with a WARN. A Kotlin coroutine is cancelled through its {@code Job} and the
	 * lock goes when it has ended. A method that returns a plain value is interrupted as with
	 * {@link #INTERRUPT}, which is how a running Java call is cancelled.
	 */
	CANCEL

}
