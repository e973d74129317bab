package io.zklock.lock;

import java.time.Instant;
import java.util.Optional;

import io.zklock.internal.Durations;
import io.zklock.internal.LockPaths;
import io.zklock.internal.WaitMessages;

import org.jspecify.annotations.Nullable;

/**
 * The exception of {@link ILockByCurator#acquire(LockRequest)} when the request's wait ran
 * out, for the interface's default and for the beans, which know whether the client was
 * connected.
 */
final class RequestTimeouts {

	private RequestTimeouts() {
	}

	/**
	 * The exception of a wait that ran out, in the words of the refusal that
	 * {@link ILockByCurator#lastRefusal()} returned for it, if any.
	 */
	static LockAcquisitionException waitRanOut(LockRequest request, Optional<LockRefusal> refusal) {
		return refusal.map((refused) -> new LockAcquisitionException(request.path(), refused.message()))
			.orElseGet(() -> waitRanOut(request, null, Optional.empty()));
	}

	static LockAcquisitionException waitRanOut(LockRequest request, @Nullable Instant disconnectedSince,
			Optional<String> explanation) {
		return new LockAcquisitionException(request.path(),
				message(request, disconnectedSince, explanation.orElse(null)));
	}

	/**
	 * The message of a wait that ran out: what could not be acquired within what wait, then that
	 * the client was not connected, or what the wait waited for.
	 */
	static String message(LockRequest request, @Nullable Instant disconnectedSince, @Nullable String waitedFor) {
		return WaitMessages.ranOut(
				"Could not acquire the " + request.mode() + " lock on '" + LockPaths.escape(request.path()) + "' within "
						+ request.maxWait().map(Durations::format).orElse("an unlimited wait"),
				disconnectedSince, waitedFor);
	}

}
