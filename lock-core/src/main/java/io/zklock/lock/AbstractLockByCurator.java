package io.zklock.lock;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.recipes.locks.InterProcessLock;

/**
 * Base of the two {@link ILockByCurator} beans: everything but the default mode is delegated
 * to one shared {@link LockCoordinator}.
 */
public abstract class AbstractLockByCurator implements ILockByCurator {

	private final LockCoordinator coordinator;

	private final LockMode defaultMode;

	/**
	 * Creates the lock API over a coordinator.
	 * @param coordinator the shared lock engine
	 * @param defaultMode the mode of the mode-less calls
	 */
	protected AbstractLockByCurator(LockCoordinator coordinator, LockMode defaultMode) {
		if (coordinator == null) {
			throw new IllegalArgumentException("'coordinator' must not be null");
		}
		this.coordinator = coordinator;
		this.defaultMode = defaultMode;
	}

	/**
	 * The lock engine this API delegates to.
	 * @return the coordinator
	 */
	public LockCoordinator getCoordinator() {
		return this.coordinator;
	}

	@Override
	public LockMode defaultMode() {
		return this.defaultMode;
	}

	@Override
	public void acquireDistributedLock(String path) {
		acquireThreadBound(path, this.defaultMode);
	}

	/**
	 * Acquires a thread-bound lock in the given mode, released by
	 * {@link #releaseDistributedLock(String)}.
	 * @param path the lock path
	 * @param mode the lock mode
	 */
	protected void acquireThreadBound(String path, LockMode mode) {
		this.coordinator.bindToThread(acquire(path, mode));
	}

	@Override
	public ReleaseResult releaseDistributedLock(String path) {
		return this.coordinator.releaseThreadBound(path);
	}

	@Override
	public LockHandle acquire(String path, LockMode mode) {
		return this.coordinator.tryAcquire(path, mode, null)
			.orElseThrow(() -> new IllegalStateException("An unbounded wait for '" + path + "' ended without the lock"));
	}

	@Override
	public Optional<LockHandle> tryAcquire(String path, LockMode mode, Duration wait) {
		return tryAcquire(path, mode, wait, null);
	}

	@Override
	public Optional<LockHandle> tryAcquire(String path, LockMode mode, Duration wait, String lockName) {
		if (wait == null) {
			throw new IllegalArgumentException("Wait for lock path '" + path
					+ "' must not be null; use Duration.ZERO to try once or acquire(path, mode) to wait without limit");
		}
		return this.coordinator.tryAcquire(path, mode, wait, lockName);
	}

	@Override
	public <T, E extends Throwable> T executeLocked(String path, LockMode mode, Duration wait,
			LockCallback<T, E> callback) throws E {
		if (callback == null) {
			throw new IllegalArgumentException("'callback' must not be null");
		}
		Optional<LockHandle> lock = tryAcquire(path, mode, wait);
		if (lock.isEmpty()) {
			throw new LockAcquisitionException(path,
					"Could not acquire the " + mode + " lock on '" + path + "' within " + wait.toMillis() + " ms");
		}
		try (LockHandle handle = lock.get()) {
			return callback.doWithLock(handle);
		}
	}

	@Override
	public Optional<LockGroup> tryAcquireAll(Collection<String> paths, LockMode mode, Duration wait) {
		if (wait == null) {
			throw new IllegalArgumentException("Wait for lock paths " + paths + " must not be null; use Duration.ZERO "
					+ "to try once");
		}
		return this.coordinator.tryAcquireAll(paths, mode, wait);
	}

	@Override
	public Lock asLock(String path) {
		return new ZooKeeperLock(this.coordinator, path, LockMode.EXCLUSIVE);
	}

	@Override
	public InterProcessLock asInterProcessLock(String path, LockMode mode) {
		if (mode == null) {
			throw new IllegalArgumentException("Lock mode must not be null for lock path '" + path + "'");
		}
		return new InterProcessLockAdapter(this.coordinator, path, mode);
	}

	@Override
	public boolean isHeldByCurrentThread(String path) {
		return this.coordinator.isHeldByCurrentThread(path);
	}

}
