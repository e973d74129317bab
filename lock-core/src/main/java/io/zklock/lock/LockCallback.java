package io.zklock.lock;

import org.jspecify.annotations.Nullable;

/**
 * Work to run while a lock is held, for
 * {@link ILockByCurator#executeLocked(String, LockMode, java.time.Duration, LockCallback)}.
 *
 * @param <T> the result type
 * @param <E> the exception the work may throw; inferred as {@link RuntimeException} for a
 * lambda that throws no checked exception
 */
@FunctionalInterface
public interface LockCallback<T extends @Nullable Object, E extends Throwable> {

	/**
	 * Runs the work.
	 * @param lock the held lock, for its fencing token; do not release it here
	 * @return the result, may be {@code null}
	 * @throws E whatever the work throws; the lock is released first
	 */
	T doWithLock(LockHandle lock) throws E;

}
