package io.zklock.annotation;

import java.time.Duration;

/**
 * The error of a {@link DistributedLock} call that zklock cancelled because it held its lock
 * past {@link DistributedLock#holdAtMost()} under {@link OnHoldExceeded#CANCEL}: the caller's
 * {@code CompletionStage} completes with it, a {@code Mono} or {@code Flux} signals it.
 */
public class HoldExceededException extends IllegalStateException {

	/** The lock path held too long. */
	private final String lockPath;

	/** The bound the hold passed. */
	private final Duration holdAtMost;

	/**
	 * Creates the exception.
	 * @param lockPath the lock path held too long
	 * @param holdAtMost the bound the hold passed
	 * @param message what happened, naming the lock, the method and the bound
	 */
	public HoldExceededException(String lockPath, Duration holdAtMost, String message) {
		super(message);
		this.lockPath = lockPath;
		this.holdAtMost = holdAtMost;
	}

	/**
	 * The lock path held too long.
	 * @return the lock path, such as {@code "exports/42"}
	 */
	public String getLockPath() {
		return this.lockPath;
	}

	/**
	 * The bound the hold passed.
	 * @return the call's {@code holdAtMost}
	 */
	public Duration getHoldAtMost() {
		return this.holdAtMost;
	}

}
