package io.zklock.lock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a lock could not be acquired: the wait ran out, the thread was interrupted
 * while waiting (its interrupt flag is then set again), or ZooKeeper failed. No lock node of
 * the failed attempt is left behind.
 */
public class LockAcquisitionException extends RuntimeException {

	/** The lock path that could not be acquired. */
	private final String lockPath;

	/**
	 * Creates an exception for the given lock path.
	 * @param lockPath the lock path that could not be acquired, relative to the lock root
	 * @param message what went wrong, naming the lock path
	 * @param cause the underlying failure, or {@code null}
	 */
	public LockAcquisitionException(String lockPath, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.lockPath = lockPath;
	}

	/**
	 * Creates an exception for the given lock path.
	 * @param lockPath the lock path that could not be acquired, relative to the lock root
	 * @param message what went wrong, naming the lock path
	 */
	public LockAcquisitionException(String lockPath, String message) {
		this(lockPath, message, null);
	}

	/**
	 * The lock path that could not be acquired.
	 * @return the lock path, relative to the lock root, for example {@code "orders/42"}
	 */
	public String getLockPath() {
		return this.lockPath;
	}

}
