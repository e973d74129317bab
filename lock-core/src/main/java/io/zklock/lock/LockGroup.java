package io.zklock.lock;

import java.util.List;

/**
 * Locks on several lock paths held together, from
 * {@link ILockByCurator#tryAcquireAll(java.util.Collection, LockMode, java.time.Duration)}.
 * They were acquired in one canonical order (sorted lock paths), so callers that name the
 * same paths in different orders cannot deadlock; {@link #release()} releases them in the
 * reverse order. Thread-safe; may be released from any thread.
 */
public final class LockGroup implements AutoCloseable {

	private final List<LockHandle> locks;

	LockGroup(List<LockHandle> locks) {
		this.locks = List.copyOf(locks);
	}

	/**
	 * The locks, in the order they were acquired.
	 * @return the handles, one per distinct lock path
	 */
	public List<LockHandle> locks() {
		return this.locks;
	}

	/**
	 * Whether every lock of the group is still held.
	 * @return {@code true} while all are held
	 */
	public boolean isHeld() {
		return this.locks.stream().allMatch(LockHandle::isHeld);
	}

	/**
	 * Releases every lock, in reverse order of acquisition.
	 * @return the most serious result among the releases: {@link ReleaseResult#LOST} before
	 * {@link ReleaseResult#CLEANUP_PENDING} before the others
	 */
	public ReleaseResult release() {
		ReleaseResult worst = null;
		for (int i = this.locks.size() - 1; i >= 0; i--) {
			ReleaseResult result = this.locks.get(i).release();
			if (worst == null || severity(result) > severity(worst)) {
				worst = result;
			}
		}
		return (worst != null) ? worst : ReleaseResult.ALREADY_RELEASED;
	}

	@Override
	public void close() {
		release();
	}

	private static int severity(ReleaseResult result) {
		return switch (result) {
			case LOST -> 3;
			case CLEANUP_PENDING -> 2;
			case RELEASED, STILL_HELD -> 1;
			case ALREADY_RELEASED -> 0;
		};
	}

}
