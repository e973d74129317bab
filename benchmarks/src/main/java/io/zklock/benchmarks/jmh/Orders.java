package io.zklock.benchmarks.jmh;

/**
 * The work of the annotation scenario, without a lock: a trivial, side-effect-free method, so
 * that what the scenario measures is the call's overhead, not its body.
 */
public class Orders {

	/**
	 * "Ships" an order.
	 * @param orderId the order
	 * @return a value derived from the id, for the benchmark to consume
	 */
	public long ship(long orderId) {
		return orderId * 31 + 7;
	}

}
