package io.zklock.boot35;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stock store that, like a database row with a version column, refuses writes whose fencing
 * token is older than the newest it has seen, and counts those refusals. It keeps no lock of
 * its own: without the distributed lock, concurrent reserve calls lose updates and oversell.
 */
public class FencedStock {

	private final Map<String, Integer> stock = new ConcurrentHashMap<>();

	private final Map<String, Long> newestToken = new ConcurrentHashMap<>();

	private final Map<String, List<Long>> writeTokens = new ConcurrentHashMap<>();

	private final AtomicLong fencingViolations = new AtomicLong();

	int read(String sku) {
		return this.stock.getOrDefault(sku, 0);
	}

	void write(String sku, int level, long fencingToken) {
		long newest = this.newestToken.getOrDefault(sku, Long.MIN_VALUE);
		if (fencingToken < newest) {
			this.fencingViolations.incrementAndGet();
			throw new IllegalStateException("Stale fencing token " + fencingToken + " for " + sku + " (seen " + newest
					+ ")");
		}
		this.newestToken.put(sku, fencingToken);
		this.writeTokens.computeIfAbsent(sku, (key) -> new ArrayList<>()).add(fencingToken);
		this.stock.put(sku, level);
	}

	/** The fencing tokens of the writes of a SKU, in write order. */
	List<Long> writeTokens(String sku) {
		return List.copyOf(this.writeTokens.getOrDefault(sku, List.of()));
	}

	long fencingViolations() {
		return this.fencingViolations.get();
	}

}
