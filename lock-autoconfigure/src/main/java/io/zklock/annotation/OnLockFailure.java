package io.zklock.annotation;

/**
 * What an annotated method does when its lock (or permit) is not acquired in time.
 */
public enum OnLockFailure {

	/** Do not run the method; throw {@link io.zklock.lock.LockAcquisitionException}. */
	THROW,

	/**
	 * Do not run the method; return "nothing" as fits its return type: {@code null} (also for
	 * {@code void}), {@code Optional.empty()}, a stage completed with {@code null}, an empty
	 * {@code Mono} or {@code Flux}. Refused at start-up on a primitive return type. Skips are
	 * logged at DEBUG and reported to {@link SkippedCallListener} beans.
	 */
	SKIP

}
