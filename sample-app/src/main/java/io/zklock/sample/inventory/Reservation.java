package io.zklock.sample.inventory;

/**
 * The outcome of {@link InventoryService#reserve(String, int)}.
 *
 * @param sku the SKU
 * @param quantity the units asked for
 * @param accepted whether the units were reserved; {@code false} if the stock was too low
 * @param remaining the stock after the reservation (unchanged when refused)
 * @param fencingToken the fencing token of the lock that guarded the call, or {@code null}
 * when locking is off
 * @param enteredAtNanos {@link System#nanoTime()} when the guarded method body started, that
 * is once the lock was held
 */
public record Reservation(String sku, int quantity, boolean accepted, int remaining, Long fencingToken,
		long enteredAtNanos) {

}
