package io.zklock.lock;

import java.time.Instant;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The exception of {@link ILockByCurator#acquire(LockRequest)} when the request's wait ran
 * out, for the interface's default and for the beans, which know whether the client was
 * connected.
 */
final class RequestTimeouts {

	private RequestTimeouts() {
	}

	static LockAcquisitionException waitRanOut(LockRequest request, @Nullable Instant disconnectedSince,
			Optional<String> explanation) {
		return LockAcquisitionException.waitRanOut(request.path(),
				"Could not acquire the " + request.mode() + " lock on '" + LockPaths.escape(request.path()) + "' within "
						+ request.maxWait().map(Durations::format).orElse("an unlimited wait"),
				disconnectedSince, explanation.orElse(null));
	}

}
