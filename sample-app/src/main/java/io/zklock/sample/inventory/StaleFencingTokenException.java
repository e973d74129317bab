package io.zklock.sample.inventory;

/**
 * Thrown by {@link InventoryStore} when a write carries a fencing token that is not greater
 * than the one the store already holds for the SKU: the writer's lock was granted before the
 * lock of the last successful writer, so the writer no longer holds it (it was paused, or its
 * ZooKeeper session expired) and its write is refused.
 */
public class StaleFencingTokenException extends RuntimeException {

	private final String sku;

	private final long fencingToken;

	private final long storedFencingToken;

	/**
	 * Creates an exception for a refused write.
	 * @param sku the SKU written
	 * @param fencingToken the token of the refused write
	 * @param storedFencingToken the token the store holds
	 */
	public StaleFencingTokenException(String sku, long fencingToken, long storedFencingToken) {
		super("Write to SKU '" + sku + "' refused: fencing token " + fencingToken
				+ " is not greater than the stored token " + storedFencingToken
				+ "; the writer no longer holds the lock (if the ZooKeeper server was replaced, reset the stock with PUT)");
		this.sku = sku;
		this.fencingToken = fencingToken;
		this.storedFencingToken = storedFencingToken;
	}

	/**
	 * The SKU of the refused write.
	 * @return the SKU
	 */
	public String getSku() {
		return this.sku;
	}

	/**
	 * The fencing token of the refused write.
	 * @return the token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * The fencing token the store held when it refused the write.
	 * @return the stored token
	 */
	public long getStoredFencingToken() {
		return this.storedFencingToken;
	}

}
