package io.zklock.annotation;

/**
 * Told of every annotated call skipped because its lock was busy
 * ({@code @DistributedLock(onFailure = SKIP)}), once per lock path that was busy, and of every
 * {@code @LeaderOnly} call skipped because this instance did not lead its role
 * ({@link SkippedCall.Reason#NOT_LEADER}), on the calling thread. Beans of this type are picked up by zklock's auto-configuration; zklock's
 * metrics count skips with one. Keep it fast; an exception it throws is logged and otherwise
 * ignored.
 */
@FunctionalInterface
public interface SkippedCallListener {

	/**
	 * Receives one skipped call.
	 * @param call what was skipped, and why
	 */
	void onSkipped(SkippedCall call);

}
