package io.zklock.lock;

import java.util.List;
import java.util.Optional;

/**
 * Base of the two {@link ILockByCurator} beans: the primitive and the hold query are
 * delegated to one shared {@link LockEngine}; only the default mode differs.
 */
public abstract class AbstractLockByCurator implements ILockByCurator {

	private final LockEngine engine;

	/**
	 * Creates the lock API over an engine.
	 * @param engine the shared lock engine, such as an {@link io.zklock.lock.spi.LockCoordinator}
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	protected AbstractLockByCurator(LockEngine engine) {
		if (engine == null) {
			throw new IllegalArgumentException("'engine' must not be null");
		}
		this.engine = engine;
	}

	/**
	 * The lock engine this API delegates to, for registering a {@link LockListener}.
	 * @return the engine
	 */
	public LockEngine engine() {
		return this.engine;
	}

	@Override
	public Optional<LockHandle> tryAcquire(LockRequest request) {
		if (request == null) {
			throw new IllegalArgumentException("Lock request must not be null; build one with LockRequest.of(path, mode)");
		}
		return this.engine.acquire(request);
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.engine.getHeldLocks();
	}

}
