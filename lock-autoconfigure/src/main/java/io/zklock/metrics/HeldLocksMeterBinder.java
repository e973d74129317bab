package io.zklock.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.zklock.lock.LockEngine;

/**
 * Binds the gauge {@value #HELD_LOCKS}: the number of lock nodes this instance holds now
 * (a lock re-entered by its holder counts once). Thread-safe.
 */
public class HeldLocksMeterBinder implements MeterBinder {

	/** Name of the gauge of held locks. */
	public static final String HELD_LOCKS = "zklock.locks.held";

	private final LockEngine engine;

	/**
	 * Creates the binder.
	 * @param engine the lock engine whose held locks are counted
	 */
	public HeldLocksMeterBinder(LockEngine engine) {
		if (engine == null) {
			throw new IllegalArgumentException("'engine' must not be null");
		}
		this.engine = engine;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(HELD_LOCKS, this.engine, (engine) -> engine.getHeldLocks().size())
			.description("Lock nodes this instance holds")
			.baseUnit("locks")
			.strongReference(true)
			.register(registry);
	}

}
