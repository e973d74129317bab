package io.zklock.fencing;

import org.springframework.dao.NonTransientDataAccessException;

/**
 * A write was refused because it carried an older fencing token than one the resource had
 * already accepted: the writer's lock was lost (its session expired while it was paused or cut
 * off) and another holder has written since. Retrying with the same token fails again; acquire
 * the lock again instead. Thrown inside a transaction, it rolls it back like any runtime
 * exception.
 */
public class StaleFencingTokenException extends NonTransientDataAccessException {

	/** The guarded resource. */
	private final String resource;

	/** The refused token. */
	private final long fencingToken;

	/** The newer token the resource had accepted. */
	private final long storedToken;

	/**
	 * Creates the exception.
	 * @param resource the guarded resource, such as the lock path {@code "orders/42"}
	 * @param fencingToken the refused token
	 * @param storedToken the newer token the resource had accepted
	 */
	public StaleFencingTokenException(String resource, long fencingToken, long storedToken) {
		super("Stale fencing token " + fencingToken + " for '" + resource + "': the resource has accepted token "
				+ storedToken + " from a newer lock holder; this writer's lock was lost, so the write is refused "
				+ "(acquire the lock again, do not retry with the same token)");
		this.resource = resource;
		this.fencingToken = fencingToken;
		this.storedToken = storedToken;
	}

	/**
	 * The guarded resource.
	 * @return such as {@code "orders/42"}
	 */
	public String getResource() {
		return this.resource;
	}

	/**
	 * The refused token.
	 * @return the writer's fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * The newer token the resource had accepted.
	 * @return a token larger than {@link #getFencingToken()}
	 */
	public long getStoredToken() {
		return this.storedToken;
	}

}
