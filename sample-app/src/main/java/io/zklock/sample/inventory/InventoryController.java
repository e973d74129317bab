package io.zklock.sample.inventory;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * HTTP API of the inventory:
 * <ul>
 * <li>{@code PUT /inventory/{sku}?stock=N} sets the stock (write lock);</li>
 * <li>{@code GET /inventory/{sku}} reads it (read lock), 404 for an unknown SKU;</li>
 * <li>{@code POST /inventory/{sku}/reserve?qty=N} reserves units (exclusive lock), answering
 * {@code accepted: false} rather than overselling.</li>
 * </ul>
 * Errors are mapped by {@link InventoryExceptionHandler}.
 */
@RestController
@RequestMapping("/inventory")
public class InventoryController {

	private final InventoryService inventory;

	/**
	 * Creates the controller.
	 * @param inventory the locked inventory service
	 */
	public InventoryController(InventoryService inventory) {
		this.inventory = inventory;
	}

	/**
	 * Reserves units of a SKU.
	 * @param sku the SKU
	 * @param qty the units to reserve
	 * @return the outcome, with the fencing token and the lock wait
	 */
	@PostMapping("/{sku}/reserve")
	public ReservationResponse reserve(@PathVariable String sku, @RequestParam int qty) {
		long calledAtNanos = System.nanoTime();
		Reservation reservation = this.inventory.reserve(sku, qty);
		return ReservationResponse.of(reservation, calledAtNanos);
	}

	/**
	 * Reads the stock of a SKU.
	 * @param sku the SKU
	 * @return the stock, or 404 if the SKU is unknown
	 */
	@GetMapping("/{sku}")
	public ResponseEntity<StockLevel> stock(@PathVariable String sku) {
		return ResponseEntity.of(this.inventory.stock(sku));
	}

	/**
	 * Sets the stock of a SKU.
	 * @param sku the SKU
	 * @param stock the new stock
	 * @return the stock written
	 */
	@PutMapping("/{sku}")
	public StockLevel setStock(@PathVariable String sku, @RequestParam int stock) {
		return this.inventory.setStock(sku, stock);
	}

}
