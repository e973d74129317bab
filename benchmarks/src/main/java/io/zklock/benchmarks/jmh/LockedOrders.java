package io.zklock.benchmarks.jmh;

import io.zklock.annotation.DistributedLock;

/**
 * {@link Orders} with the method under {@code @DistributedLock}, the key taken from the
 * argument by SpEL, as an application writes it.
 */
public class LockedOrders extends Orders {

	@Override
	@DistributedLock(path = "orders", key = "#orderId", waitTime = "10s")
	public long ship(long orderId) {
		return super.ship(orderId);
	}

}
