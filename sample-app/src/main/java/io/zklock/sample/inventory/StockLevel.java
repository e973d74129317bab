package io.zklock.sample.inventory;

/**
 * The stock of one SKU as the API reports it.
 *
 * @param sku the SKU
 * @param stock the units in stock
 * @param fencingToken the largest fencing token that wrote the SKU, {@code 0} if none did
 */
public record StockLevel(String sku, int stock, long fencingToken) {

	static StockLevel of(String sku, StockRecord record) {
		return new StockLevel(sku, record.stock(), record.fencingToken());
	}

}
