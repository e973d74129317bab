package io.zklock.boot35;

import java.util.concurrent.locks.LockSupport;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.lock.LockMode;
import io.zklock.test.LockAssert;

/**
 * The sample application's reservation flow in small: read the stock of a SKU, work a
 * moment, write the new level with the lock's fencing token.
 */
public class Inventory {

	private final FencedStock store;

	public Inventory(FencedStock store) {
		this.store = store;
	}

	@DistributedLock(path = "inventory", key = "#sku")
	public void setStock(String sku, int level) {
		this.store.write(sku, level, LockContext.currentToken());
	}

	/**
	 * Reserves units if enough are in stock.
	 * @return whether the reservation was accepted
	 */
	@DistributedLock(path = "inventory", key = "#sku", waitTime = "30s")
	public boolean reserve(String sku, int quantity) {
		long token = LockAssert.assertLocked("inventory/" + sku, LockMode.EXCLUSIVE).fencingToken();
		int level = this.store.read(sku);
		if (level < quantity) {
			return false;
		}
		// simulated work between reading and writing: it widens the race the lock closes
		LockSupport.parkNanos(100_000);
		this.store.write(sku, level - quantity, token);
		return true;
	}

	@DistributedLock(path = "inventory", key = "#sku", mode = LockMode.READ)
	public int stock(String sku) {
		return this.store.read(sku);
	}

}
