package io.zklock.lock;

import java.util.List;
import java.util.Optional;

import io.zklock.lock.event.HeldLock;
import io.zklock.lock.event.LockListener;

/**
 * Base of the two {@link ILockByCurator} beans: the primitive and the hold query are
 * delegated to one shared {@link LockEngine}; only the default mode differs. Package-private: its
 * public methods are those of {@link ExclusiveLockByCurator} and {@link SharedLockByCurator}.
 */
abstract class AbstractLockByCurator implements ILockByCurator {

	private final LockEngine engine;

	/**
	 * Creates the lock API over an engine.
	 * @param engine the shared lock engine
	 * @throws IllegalArgumentException if {@code engine} is {@code null}
	 */
	AbstractLockByCurator(LockEngine engine) {
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

	/**
	 * Acquires a lock as the request says, and fails if its wait runs out; the failure says
	 * whether the client was connected when it ran out, and since when it was not
	 * ({@link LockEngine#disconnectedSince()}), and what it waited for
	 * ({@link LockEngine#explainWait(LockRequest)}), in the words of the refusal that
	 * {@link #lastRefusal()} returns for the same wait.
	 * @param request the request
	 * @return the handle
	 * @throws LockAcquisitionException if the wait ran out, if interrupted, or if ZooKeeper
	 * fails
	 */
	@Override
	public LockHandle acquire(LockRequest request) {
		Optional<LockHandle> handle = tryAcquire(request);
		if (handle.isPresent()) {
			return handle.get();
		}
		// the refusal read when the wait ran out: the exception and lastRefusal() say the same
		Optional<LockRefusal> refusal = this.engine.lastRefusal();
		if (refusal.isPresent()) {
			throw new LockAcquisitionException(request.path(), refusal.get().message());
		}
		throw RequestTimeouts.waitRanOut(request, this.engine.disconnectedSince().orElse(null),
				this.engine.explainWait(request));
	}

	/**
	 * Why the current thread's most recent acquire through this object's engine returned empty
	 * ({@link LockEngine#lastRefusal()}): both beans over one engine answer alike.
	 * @return the refusal, or empty
	 */
	@Override
	public Optional<LockRefusal> lastRefusal() {
		return this.engine.lastRefusal();
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.engine.getHeldLocks();
	}

}
