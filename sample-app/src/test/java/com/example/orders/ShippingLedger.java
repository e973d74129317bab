package com.example.orders;

import java.util.HashMap;
import java.util.Map;

import org.springframework.stereotype.Component;

// Stands in for the resource the lock protects (a table, a file, a remote service): it
// refuses a fencing token older than the newest it has seen for the order.
@Component
public class ShippingLedger {

	private final Map<String, Long> newestToken = new HashMap<>();

	private final Map<String, Integer> shipments = new HashMap<>();

	public synchronized void recordShipment(String orderId, long fencingToken) {
		if (fencingToken < this.newestToken.getOrDefault(orderId, Long.MIN_VALUE)) {
			throw new IllegalStateException("Stale fencing token " + fencingToken + " for order " + orderId);
		}
		this.newestToken.put(orderId, fencingToken);
		this.shipments.merge(orderId, 1, Integer::sum);
	}

	public synchronized int shipments(String orderId) {
		return this.shipments.getOrDefault(orderId, 0);
	}

}
