package io.zklock.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order libraries (or contenders) run in at one measuring point: rotated from point to point, so that no
 * library is always the first (or last) to run on the driver JVM and the server.
 */
final class RunOrder {

	private RunOrder() {
	}

	/**
	 * The libraries rotated left by {@code point}.
	 * @param libraries the libraries in table order
	 * @param point the index of the measuring point
	 * @return the run order
	 */
	static <T> List<T> rotated(List<T> libraries, int point) {
		List<T> order = new ArrayList<>(libraries);
		Collections.rotate(order, -(point % order.size()));
		return order;
	}

}
