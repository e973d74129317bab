package com.example.orders;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.LockContext;

import org.springframework.stereotype.Service;

@Service
public class OrderService {

	private final ShippingLedger ledger;

	public OrderService(ShippingLedger ledger) {
		this.ledger = ledger;
	}

	// one call per order at a time, across every instance of the application
	@DistributedLock(path = "orders", key = "#orderId", waitTime = "5s")
	public void ship(String orderId) {
		long fencingToken = LockContext.currentToken();
		this.ledger.recordShipment(orderId, fencingToken);
	}

}
