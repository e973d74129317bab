package io.zklock.integration;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import io.zklock.lock.LockHandle;

import org.jspecify.annotations.Nullable;

/**
 * One thread's holds of one lock path through one {@link ZkLockRegistry}: the handles of its
 * open {@code lock()}/{@code tryLock()} calls, innermost on top, and how many {@code unlock()}
 * calls are still owed for holds that were found lost and released already. Touched only by
 * its own thread.
 */
final class ThreadHolds {

	final ArrayDeque<LockHandle> handles = new ArrayDeque<>();

	/** Unlocks owed for entries given up when their hold was found in doubt or lost. */
	int lostUnlocksOwed;

	/** Fencing token of the hold given up last, for the message of an owed unlock. */
	long lostToken;

	boolean isEmpty() {
		return this.handles.isEmpty() && this.lostUnlocksOwed == 0;
	}

	/** The current thread's holds, per lock path, of one registry. */
	static final class PerThread extends ThreadLocal<Map<String, ThreadHolds>> {

		@Override
		protected Map<String, ThreadHolds> initialValue() {
			return new HashMap<>();
		}

		ThreadHolds of(String lockPath) {
			return get().computeIfAbsent(lockPath, (path) -> new ThreadHolds());
		}

		@Nullable ThreadHolds find(String lockPath) {
			return get().get(lockPath);
		}

		void tidy(String lockPath, ThreadHolds holds) {
			if (holds.isEmpty()) {
				Map<String, ThreadHolds> map = get();
				map.remove(lockPath);
				if (map.isEmpty()) {
					remove();
				}
			}
		}

	}

}
