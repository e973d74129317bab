package io.zklock.lock;

import java.util.List;
import java.util.Optional;

/**
 * Base of the two {@link ILockByCurator} beans: the primitive and the hold query are
 * delegated to one shared {@link LockCoordinator}; only the default mode differs.
 */
public abstract class AbstractLockByCurator implements ILockByCurator {

	private final LockCoordinator coordinator;

	/**
	 * Creates the lock API over a coordinator.
	 * @param coordinator the shared lock engine
	 * @throws IllegalArgumentException if {@code coordinator} is {@code null}
	 */
	protected AbstractLockByCurator(LockCoordinator coordinator) {
		if (coordinator == null) {
			throw new IllegalArgumentException("'coordinator' must not be null");
		}
		this.coordinator = coordinator;
	}

	/**
	 * The lock engine this API delegates to.
	 * @return the coordinator
	 */
	public LockCoordinator getCoordinator() {
		return this.coordinator;
	}

	@Override
	public Optional<LockHandle> tryAcquire(LockRequest request) {
		if (request == null) {
			throw new IllegalArgumentException("Lock request must not be null; build one with LockRequest.of(path, mode)");
		}
		return this.coordinator.acquire(request);
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.coordinator.getHeldLocks();
	}

}
