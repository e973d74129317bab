package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.locks.InterProcessLock;

/**
 * A zklock lock seen as a Curator {@link InterProcessLock}, so it can take part in
 * Curator's {@code InterProcessMultiLock}. Thread-bound like Curator's own locks:
 * {@link #release()} releases the current thread's latest hold.
 */
final class InterProcessLockAdapter implements InterProcessLock {

	private final LockCoordinator coordinator;

	private final String lockPath;

	private final LockMode mode;

	InterProcessLockAdapter(LockCoordinator coordinator, String lockPath, LockMode mode) {
		this.coordinator = coordinator;
		this.lockPath = LockPaths.normalize(lockPath, coordinator.getRootPath());
		this.mode = mode;
	}

	@Override
	public void acquire() throws Exception {
		acquire(-1, null);
	}

	@Override
	public boolean acquire(long time, TimeUnit unit) throws Exception {
		Duration wait = (unit != null) ? Duration.ofNanos(Math.max(0, unit.toNanos(time))) : null;
		LockHandle handle;
		try {
			handle = this.coordinator.tryAcquire(this.lockPath, this.mode, wait).orElse(null);
		}
		catch (LockAcquisitionException ex) {
			if (ex.getCause() instanceof Exception cause) {
				if (cause instanceof InterruptedException) {
					Thread.interrupted();
				}
				throw cause;
			}
			throw ex;
		}
		if (handle == null) {
			return false;
		}
		this.coordinator.bindToThread(handle);
		return true;
	}

	@Override
	public void release() {
		this.coordinator.releaseThreadBound(this.lockPath);
	}

	@Override
	public boolean isAcquiredInThisProcess() {
		return this.coordinator.getHeldLocks().stream().anyMatch((held) -> held.lockPath().equals(this.lockPath));
	}

	@Override
	public String toString() {
		return "InterProcessLockAdapter[" + this.mode + " '" + this.lockPath + "']";
	}

}
