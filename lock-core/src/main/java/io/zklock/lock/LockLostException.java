package io.zklock.lock;

/**
 * Thrown when work guarded by a lock finished after the lock had been lost or put in doubt
 * (see {@link LockState}), so its result cannot be trusted to have run alone. Fencing tokens
 * let the resources it wrote refuse its writes.
 *
 * <p>
 * <strong>Do not retry the work after this exception unless it is idempotent or fenced.</strong>
 * It is thrown after the work ran: its writes are done, and while the lock was lost another holder
 * may have done the same work. Running it again does it twice. Retry only work that is safe to
 * repeat (idempotent), or whose writes carry the lock's fencing token, so that the resource refuses
 * a holder older than the newest it has seen (fenced: docs/fencing.md); otherwise treat it as an
 * incident and check the resource first.
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
