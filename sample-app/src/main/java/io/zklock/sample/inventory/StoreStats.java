package io.zklock.sample.inventory;

/**
 * What one instance's {@link InventoryStore} has done, as {@code GET /store/stats} reports it.
 *
 * @param directory the shared stock directory
 * @param writes the successful writes of this instance
 * @param fencingViolations the writes this instance's store refused for a stale fencing token
 */
public record StoreStats(String directory, long writes, long fencingViolations) {

}
