package io.zklock.fault.check;

/**
 * When one grant of a lock was held, as its holder saw it.
 *
 * @param process the holder
 * @param thread the holder's worker
 * @param token the grant's fencing token
 * @param start when the acquire returned
 * @param end when the holder stopped holding: it started to release, its library reported
 * the lock {@code LOST}, or it died; {@link Long#MAX_VALUE} if none of these happened
 * @param doubtEnd like {@code end}, but also ended by an {@code IN_DOUBT} report
 */
public record HeldInterval(String process, String thread, long token, long start, long end, long doubtEnd) {

	/** Whether this interval and {@code other} share a moment. */
	public boolean overlaps(HeldInterval other, boolean untilDoubt) {
		long myEnd = untilDoubt ? this.doubtEnd : this.end;
		long otherEnd = untilDoubt ? other.doubtEnd : other.end;
		return this.start < otherEnd && other.start < myEnd;
	}

}
