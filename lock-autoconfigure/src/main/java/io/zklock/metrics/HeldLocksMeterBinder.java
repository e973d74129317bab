package io.zklock.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.zklock.lock.spi.LockCoordinator;

/**
 * Binds the gauge {@value #HELD_LOCKS}: the number of lock nodes this instance holds now
 * (a lock re-entered by its holder counts once). Thread-safe.
 */
public class HeldLocksMeterBinder implements MeterBinder {

	/** Name of the gauge of held locks. */
	public static final String HELD_LOCKS = "zklock.locks.held";

	private final LockCoordinator coordinator;

	/**
	 * Creates the binder.
	 * @param coordinator the lock engine whose held locks are counted
	 */
	public HeldLocksMeterBinder(LockCoordinator coordinator) {
		if (coordinator == null) {
			throw new IllegalArgumentException("'coordinator' must not be null");
		}
		this.coordinator = coordinator;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(HELD_LOCKS, this.coordinator, (coordinator) -> coordinator.getHeldLocks().size())
			.description("Lock nodes this instance holds")
			.baseUnit("locks")
			.strongReference(true)
			.register(registry);
	}

}
