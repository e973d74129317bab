package io.zklock.endpoint;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.zklock.leadership.RevocationReason;

/**
 * The term this instance holds of a role.
 *
 * @param fencingToken the term's fencing token
 * @param since when this instance was granted it
 * @param active whether it is active: leader-only work may run
 * @param revocationReason why it is not active (jeopardy), or {@code null} while active
 */
public record TermDescriptor(long fencingToken, Instant since, boolean active,
		@Nullable RevocationReason revocationReason) {

}
