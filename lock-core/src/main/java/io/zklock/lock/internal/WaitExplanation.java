package io.zklock.lock.internal;

import java.time.Instant;

import io.zklock.lock.LockRefusal;
import org.jspecify.annotations.Nullable;

/**
 * What a wait that ran out waited for, read once when it ran out, so that its reason and its
 * words never disagree: {@code io.zklock.lock.LockEngine} builds the {@link LockRefusal} and the
 * time-out's message from it.
 *
 * <p>
 * Internal: not part of zklock's API, no compatibility promise; public only for
 * {@code io.zklock.lock.LockEngine}.
 *
 * @param reason what the wait ran out for
 * @param disconnectedSince since when the client was not connected, or {@code null} if it was
 * @param waitedFor what the wait waited for in words, or {@code null} if this process knows
 * nothing of the lock path's holders
 */
public record WaitExplanation(LockRefusal.Reason reason, @Nullable Instant disconnectedSince,
		@Nullable String waitedFor) {

}
