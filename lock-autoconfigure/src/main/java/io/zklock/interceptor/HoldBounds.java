package io.zklock.interceptor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.OnHoldExceeded;
import io.zklock.lock.event.LockListener;

/**
 * What the holds of annotated calls share for their bounds: the thread that runs their delayed
 * releases, the listeners told when a cancelled call's locks are let go after
 * {@code zklock.hold-after-cancel}, and the settings ({@code zklock.hold-after-cancel},
 * {@code zklock.default-hold-at-most}, {@code zklock.on-hold-exceeded}). The
 * {@code holdAtMost} bound itself is timed by the engine ({@link LockedCall}). Thread-safe.
 *
 * @param scheduler runs the delayed releases ({@code holdAtLeast}, {@code zklock.hold-after-cancel})
 * @param events told when a cancelled call's locks are released after
 * {@code zklock.hold-after-cancel} ({@link LockListener#onHoldExceeded} with {@code released}
 * {@code true}); called on the scheduler's thread, must not throw
 * @param holdAfterCancel how long a call whose work was cancelled where its end cannot be seen
 * keeps its locks after the cancel
 * @param defaultHoldAtMost the hold bound of annotations that set none, or {@code null}
 * @param defaultPolicy the policy of annotations that say {@link OnHoldExceeded#DEFAULT}
 */
record HoldBounds(LockReleaseScheduler scheduler, LockListener events, Duration holdAfterCancel,
		@Nullable Duration defaultHoldAtMost, OnHoldExceeded defaultPolicy) {

	/** Bounds from the interceptor's settings. */
	static HoldBounds of(LockReleaseScheduler scheduler, LockListener events, AnnotationSettings settings) {
		return new HoldBounds(scheduler, events, settings.holdAfterCancel(), settings.defaultHoldAtMost(),
				settings.onHoldExceeded());
	}

	/** The bound of a call whose annotations set {@code holdAtMost} (or {@code null}). */
	@Nullable Duration holdAtMost(@Nullable Duration annotated) {
		return (annotated != null) ? annotated : this.defaultHoldAtMost;
	}

	/** The policy of a call whose annotations set {@code policy}. */
	OnHoldExceeded policy(OnHoldExceeded annotated) {
		return (annotated != OnHoldExceeded.DEFAULT) ? annotated : this.defaultPolicy;
	}

}
