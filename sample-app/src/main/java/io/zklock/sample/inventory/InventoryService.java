package io.zklock.sample.inventory;

import java.time.Duration;
import java.util.Optional;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.stereotype.Service;

/**
 * Reserves stock under a ZooKeeper lock per SKU ({@code inventory/<sku>}), so that
 * instances sharing one {@link InventoryStore} neither lose updates nor oversell. Every write
 * carries the lock's fencing token, which the store checks.
 *
 * <p>
 * The locks apply only through the Spring proxy: call this bean from other beans. With
 * {@code zklock.enabled=false} the methods run unlocked and without fencing tokens, which is
 * what the demo's control run shows.
 *
 * <p>
 * Thread-safe.
 */
@Service
public class InventoryService {

	private final InventoryStore store;

	private final Duration workPause;

	/**
	 * Creates the service.
	 * @param store the shared stock store
	 * @param properties the inventory properties, for the simulated work pause
	 */
	public InventoryService(InventoryStore store, InventoryProperties properties) {
		this.store = store;
		this.workPause = properties.getWorkPause();
	}

	/**
	 * Reserves units of a SKU if enough are in stock: reads the stock, works for
	 * {@code sample.inventory.work-pause}, then writes the reduced stock, all under the
	 * exclusive lock of the SKU.
	 * @param sku the SKU
	 * @param quantity the units to reserve, at least 1
	 * @return the outcome; refused (and nothing written) if the stock is lower than
	 * {@code quantity} or the SKU is unknown
	 * @throws IllegalArgumentException if the SKU or the quantity is invalid
	 * @throws io.zklock.lock.LockAcquisitionException if the lock was not acquired within 10
	 * seconds
	 * @throws StaleFencingTokenException if the store holds a newer fencing token
	 */
	@DistributedLock(path = "inventory", key = "#sku", waitTime = "10s")
	public Reservation reserve(String sku, int quantity) {
		long enteredAtNanos = System.nanoTime();
		if (quantity < 1) {
			throw new IllegalArgumentException("Quantity must be at least 1, was " + quantity);
		}
		Long fencingToken = currentFencingToken();
		int stock = this.store.read(sku).map(StockRecord::stock).orElse(0);
		simulateWork();
		if (stock < quantity) {
			return new Reservation(sku, quantity, false, stock, fencingToken, enteredAtNanos);
		}
		StockRecord written = this.store.write(sku, stock - quantity, fencingToken);
		return new Reservation(sku, quantity, true, written.stock(), fencingToken, enteredAtNanos);
	}

	/**
	 * Reads the stock of a SKU under its read lock: readers share it, and a reservation in
	 * progress on any instance finishes first.
	 * @param sku the SKU
	 * @return the stock, or empty if the SKU is unknown
	 * @throws IllegalArgumentException if the SKU is invalid
	 */
	@DistributedLock(path = "inventory", key = "#sku", mode = LockMode.READ, waitTime = "10s")
	public Optional<StockLevel> stock(String sku) {
		return this.store.read(sku).map((record) -> StockLevel.of(sku, record));
	}

	/**
	 * Sets the stock of a SKU under its write lock, replacing what the store held, its
	 * fencing token included (see {@link InventoryStore#reset}).
	 * @param sku the SKU
	 * @param stock the new stock, not negative
	 * @return the stock written
	 * @throws IllegalArgumentException if the SKU is invalid or the stock negative
	 */
	@DistributedLock(path = "inventory", key = "#sku", mode = LockMode.WRITE, waitTime = "10s")
	public StockLevel setStock(String sku, int stock) {
		return StockLevel.of(sku, this.store.reset(sku, stock, currentFencingToken()));
	}

	private static Long currentFencingToken() {
		return LockContext.currentLock().map(LockHandle::fencingToken).orElse(null);
	}

	private void simulateWork() {
		long millis = this.workPause.toMillis();
		int nanos = this.workPause.toNanosPart() % 1_000_000;
		if (millis == 0 && nanos == 0) {
			return;
		}
		try {
			Thread.sleep(millis, nanos);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while reserving", ex);
		}
	}

}
