package io.zklock.sample.inventory;

/**
 * What the store holds for one SKU.
 *
 * @param stock the units in stock, never negative
 * @param fencingToken the largest fencing token that wrote this SKU, or {@code 0} if none did
 */
public record StockRecord(int stock, long fencingToken) {

	/**
	 * Creates a record, checking the stock.
	 * @param stock the units in stock
	 * @param fencingToken the largest fencing token that wrote this SKU, or {@code 0}
	 * @throws IllegalArgumentException if the stock is negative
	 */
	public StockRecord {
		if (stock < 0) {
			throw new IllegalArgumentException("Stock must not be negative, was " + stock);
		}
	}

}
