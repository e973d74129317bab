package io.zklock.sample.inventory;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /store/stats}: the write and fencing-violation counts of this instance's store.
 * It takes no lock, so it also tells that the instance is up.
 */
@RestController
public class StoreStatsController {

	private final InventoryStore store;

	/**
	 * Creates the controller.
	 * @param store this instance's store
	 */
	public StoreStatsController(InventoryStore store) {
		this.store = store;
	}

	/**
	 * Reports the store's counts.
	 * @return the counts
	 */
	@GetMapping("/store/stats")
	public StoreStats stats() {
		return new StoreStats(this.store.getDirectory().toString(), this.store.getWriteCount(),
				this.store.getFencingViolationCount());
	}

}
