package io.zklock.interceptor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.OnLockLost;

/**
 * Settings of the {@link DistributedLock} interceptor.
 *
 * @param defaultWaitTime the wait of annotations that set none
 * @param onLockLost what to do when a lock is lost while its method runs
 * @param releaseAfterTransaction whether a method that joined a transaction it did not
 * start keeps its locks until that transaction completes
 * @param holdAfterCancel how long a call whose work was cancelled where its end cannot be seen
 * keeps its locks after the cancel ({@code zklock.hold-after-cancel})
 * @param defaultHoldAtMost the {@link DistributedLock#holdAtMost()} of annotations that set
 * none, or {@code null} for none
 * @param onHoldExceeded what to do when a call passes its hold bound, for annotations that say
 * {@link OnHoldExceeded#DEFAULT}
 */
public record AnnotationSettings(Duration defaultWaitTime, OnLockLost onLockLost, boolean releaseAfterTransaction,
		Duration holdAfterCancel, @Nullable Duration defaultHoldAtMost, OnHoldExceeded onHoldExceeded) {

	/** The default of {@code zklock.hold-after-cancel}. */
	public static final Duration DEFAULT_HOLD_AFTER_CANCEL = Duration.ofSeconds(10);

	/**
	 * Checks the settings.
	 * @param defaultWaitTime the wait of annotations that set none
	 * @param onLockLost what to do when a lock is lost while its method runs; {@code null} for
	 * {@link OnLockLost#FAIL}
	 * @param releaseAfterTransaction whether a method that joined a transaction it did not
	 * start keeps its locks until that transaction completes
	 * @param holdAfterCancel how long a call whose work was cancelled where its end cannot be
	 * seen keeps its locks after the cancel; {@code null} for
	 * {@link #DEFAULT_HOLD_AFTER_CANCEL}
	 * @param defaultHoldAtMost the hold bound of annotations that set none, or {@code null} for
	 * none
	 * @param onHoldExceeded what to do when a call passes its hold bound; {@code null} for
	 * {@link OnHoldExceeded#WARN}
	 * @throws IllegalArgumentException if the default wait time is missing or negative, the
	 * hold after a cancel is negative, the default hold bound is not positive, or the policy is
	 * {@link OnHoldExceeded#DEFAULT}
	 */
	public AnnotationSettings {
		if (defaultWaitTime == null || defaultWaitTime.isNegative()) {
			throw new IllegalArgumentException("Invalid zklock.default-wait-time=" + defaultWaitTime
					+ ": use a non-negative duration such as '30s'");
		}
		if (onLockLost == null) {
			onLockLost = OnLockLost.FAIL;
		}
		if (holdAfterCancel == null) {
			holdAfterCancel = DEFAULT_HOLD_AFTER_CANCEL;
		}
		if (holdAfterCancel.isNegative()) {
			throw new IllegalArgumentException("Invalid zklock.hold-after-cancel=" + holdAfterCancel
					+ ": use a duration of zero or more such as '10s'");
		}
		if (defaultHoldAtMost != null && (defaultHoldAtMost.isNegative() || defaultHoldAtMost.isZero())) {
			throw new IllegalArgumentException("Invalid zklock.default-hold-at-most=" + defaultHoldAtMost
					+ ": use a positive duration such as '10m', or leave it unset for none");
		}
		if (onHoldExceeded == null) {
			onHoldExceeded = OnHoldExceeded.WARN;
		}
		if (onHoldExceeded == OnHoldExceeded.DEFAULT) {
			throw new IllegalArgumentException(
					"Invalid zklock.on-hold-exceeded=default: use warn, interrupt or cancel");
		}
	}

	/**
	 * Settings without hold bounds: a cancelled call's locks are kept
	 * {@link #DEFAULT_HOLD_AFTER_CANCEL} after the cancel when its end cannot be seen.
	 * @param defaultWaitTime the wait of annotations that set none
	 * @param onLockLost what to do when a lock is lost while its method runs; {@code null} for
	 * {@link OnLockLost#FAIL}
	 * @param releaseAfterTransaction whether a method that joined a transaction it did not
	 * start keeps its locks until that transaction completes
	 * @throws IllegalArgumentException if the default wait time is missing or negative
	 */
	public AnnotationSettings(Duration defaultWaitTime, OnLockLost onLockLost, boolean releaseAfterTransaction) {
		this(defaultWaitTime, onLockLost, releaseAfterTransaction, DEFAULT_HOLD_AFTER_CANCEL, null,
				OnHoldExceeded.WARN);
	}

}
