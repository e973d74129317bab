package io.zklock.lock;

/**
 * Work without a result to run while a lock is held, for
 * {@link ILockByCurator#executeLocked(String, LockMode, java.time.Duration, LockedAction)}:
 * {@code locks.executeLocked("reports", LockMode.WRITE, wait, () -> rebuild())}.
 *
 * @param <E> the exception the work may throw; inferred as {@link RuntimeException} for a
 * lambda that throws no checked exception
 */
@FunctionalInterface
public interface LockedAction<E extends Throwable> {

	/**
	 * Runs the work.
	 * @throws E whatever the work throws; the lock is released first
	 */
	void run() throws E;

}
