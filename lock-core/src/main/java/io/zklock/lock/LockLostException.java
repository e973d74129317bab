package io.zklock.lock;

/**
 * Thrown when work guarded by a lock finished after the lock had been lost or put in doubt
 * (see {@link LockState}), so its result cannot be trusted to have run alone. Fencing tokens
 * let the resources it wrote refuse its writes.
 */
public class LockLostException extends RuntimeException {

	/** The lock path of the lost lock. */
	private final String lockPath;

	/** The fencing token of the lost lock. */
	private final long fencingToken;

	/** The lock's state when the work ended. */
	private final LockState state;

	/**
	 * Creates the exception.
	 * @param lockPath the lock path
	 * @param fencingToken the fencing token of the lost lock
	 * @param state the lock's state when the work ended ({@link LockState#IN_DOUBT} or
	 * {@link LockState#LOST})
	 * @param message what happened, naming the lock path and the work
	 */
	public LockLostException(String lockPath, long fencingToken, LockState state, String message) {
		super(message);
		this.lockPath = lockPath;
		this.fencingToken = fencingToken;
		this.state = state;
	}

	/**
	 * The lock path of the lost lock.
	 * @return the lock path, such as {@code "orders/42"}
	 */
	public String getLockPath() {
		return this.lockPath;
	}

	/**
	 * The fencing token of the lost lock.
	 * @return the token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * The lock's state when the work ended.
	 * @return {@link LockState#IN_DOUBT} or {@link LockState#LOST}
	 */
	public LockState getState() {
		return this.state;
	}

}
