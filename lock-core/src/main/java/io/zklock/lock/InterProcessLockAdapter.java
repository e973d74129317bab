package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.zklock.internal.LockPaths;

import org.apache.curator.framework.recipes.locks.InterProcessLock;

/**
 * A zklock lock seen as a Curator {@link InterProcessLock}, so it can take part in
 * Curator's {@code InterProcessMultiLock}. Thread-owned like Curator's own locks:
 * {@link #release()} releases the current thread's latest hold.
 */
final class InterProcessLockAdapter implements InterProcessLock {

	private final ILockByCurator locks;

	private final String lockPath;

	private final LockMode mode;

	/** Holds open through this view, by any thread (Curator's meaning of "in this process"). */
	private final AtomicInteger open = new AtomicInteger();

	InterProcessLockAdapter(ILockByCurator locks, String lockPath, LockMode mode) {
		if (mode == null) {
			throw new IllegalArgumentException("Lock mode must not be null for lock path '" + lockPath
					+ "'; use EXCLUSIVE, READ or WRITE");
		}
		this.locks = locks;
		this.lockPath = LockPaths.normalize(lockPath);
		this.mode = mode;
	}

	@Override
	public void acquire() throws Exception {
		acquire(LockRequest.of(this.lockPath, this.mode));
	}

	@Override
	public boolean acquire(long time, TimeUnit unit) throws Exception {
		Duration wait = (unit != null) ? Duration.ofNanos(Math.max(0, unit.toNanos(time))) : null;
		LockRequest request = LockRequest.of(this.lockPath, this.mode);
		return acquire((wait != null) ? request.waitAtMost(wait) : request);
	}

	private boolean acquire(LockRequest request) throws Exception {
		boolean acquired;
		try {
			acquired = ThreadBoundLocks.tryAcquire(this.locks, request);
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
		if (acquired) {
			this.open.incrementAndGet();
		}
		return acquired;
	}

	@Override
	public void release() {
		ThreadBoundLocks.release(this.locks, this.lockPath);
		this.open.decrementAndGet();
	}

	@Override
	public boolean isAcquiredInThisProcess() {
		return this.open.get() > 0;
	}

	@Override
	public String toString() {
		return "InterProcessLockAdapter[" + this.mode + " '" + this.lockPath + "']";
	}

}
