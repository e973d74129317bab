package io.zklock.annotation;

import java.time.Duration;

/**
 * Settings of the {@link DistributedLock} interceptor.
 *
 * @param defaultWaitTime the wait of annotations that set none
 * @param onLockLost what to do when a lock is lost while its method runs
 * @param releaseAfterTransaction whether a method that joined a transaction it did not
 * start keeps its locks until that transaction completes
 */
public record AnnotationSettings(Duration defaultWaitTime, OnLockLost onLockLost, boolean releaseAfterTransaction) {

	/**
	 * Checks the settings.
	 * @param defaultWaitTime the wait of annotations that set none
	 * @param onLockLost what to do when a lock is lost while its method runs; {@code null} for
	 * {@link OnLockLost#FAIL}
	 * @param releaseAfterTransaction whether a method that joined a transaction it did not
	 * start keeps its locks until that transaction completes
	 * @throws IllegalArgumentException if the default wait time is missing or negative
	 */
	public AnnotationSettings {
		if (defaultWaitTime == null || defaultWaitTime.isNegative()) {
			throw new IllegalArgumentException("Invalid zklock.default-wait-time=" + defaultWaitTime
					+ ": use a non-negative duration such as '30s'");
		}
		if (onLockLost == null) {
			onLockLost = OnLockLost.FAIL;
		}
	}

}
