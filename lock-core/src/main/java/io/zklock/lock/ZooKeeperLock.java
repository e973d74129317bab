package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} over one lock path: fair (FIFO by lock-node order across all processes)
 * and reentrant per thread, like a fair {@link java.util.concurrent.locks.ReentrantLock}
 * shared by the whole fleet. {@link #unlock()} must run on the thread that locked.
 *
 * <p>
 * ZooKeeper failures surface as {@link LockAcquisitionException} (unchecked).
 * {@link #newCondition()} is not supported.
 */
final class ZooKeeperLock implements Lock {

	private final LockCoordinator coordinator;

	private final String lockPath;

	private final LockMode mode;

	ZooKeeperLock(LockCoordinator coordinator, String lockPath, LockMode mode) {
		this.coordinator = coordinator;
		this.lockPath = LockPaths.normalize(lockPath, coordinator.getRootPath());
		this.mode = mode;
	}

	@Override
	public void lock() {
		boolean interrupted = false;
		try {
			while (true) {
				try {
					this.coordinator.bindToThread(acquire(null));
					return;
				}
				catch (LockAcquisitionException ex) {
					if (!(ex.getCause() instanceof InterruptedException)) {
						throw ex;
					}
					// lock() is not interruptible: clear the flag, queue again, restore it at the end
					interrupted = true;
					Thread.interrupted();
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking '" + this.lockPath + "'");
		}
		try {
			this.coordinator.bindToThread(acquire(null));
		}
		catch (LockAcquisitionException ex) {
			if (ex.getCause() instanceof InterruptedException interrupted) {
				Thread.interrupted();
				throw interrupted;
			}
			throw ex;
		}
	}

	@Override
	public boolean tryLock() {
		return tryLockFor(Duration.ZERO);
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking '" + this.lockPath + "'");
		}
		try {
			return tryLockFor(Duration.ofNanos(Math.max(0, unit.toNanos(time))));
		}
		catch (LockAcquisitionException ex) {
			if (ex.getCause() instanceof InterruptedException interrupted) {
				Thread.interrupted();
				throw interrupted;
			}
			throw ex;
		}
	}

	private boolean tryLockFor(Duration wait) {
		LockHandle handle = acquire(wait);
		if (handle == null) {
			return false;
		}
		this.coordinator.bindToThread(handle);
		return true;
	}

	private LockHandle acquire(Duration wait) {
		return this.coordinator.tryAcquire(this.lockPath, this.mode, wait).orElse(null);
	}

	/**
	 * Releases one hold of the current thread.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 */
	@Override
	public void unlock() {
		this.coordinator.releaseThreadBound(this.lockPath);
	}

	/**
	 * Not supported.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("A ZooKeeper lock on '" + this.lockPath
				+ "' has no Condition: waiting on a condition would need a signal that crosses processes and "
				+ "survives the lock's release, which the lock recipe does not provide; use a ZooKeeper "
				+ "barrier or queue recipe (Curator DistributedBarrier, DistributedQueue) instead");
	}

	@Override
	public String toString() {
		return "ZooKeeperLock[" + this.mode + " '" + this.lockPath + "']";
	}

}
