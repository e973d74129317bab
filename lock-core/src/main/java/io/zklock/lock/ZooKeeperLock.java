package io.zklock.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;

import io.zklock.internal.LockPaths;

/**
 * A {@link Lock} over one lock path: fair (FIFO by lock-node order across all processes),
 * thread-owned and reentrant per thread, like a fair
 * {@link java.util.concurrent.locks.ReentrantLock} shared by the whole fleet.
 * {@link #lock()} waits through interrupts and keeps its place in the queue; {@link #unlock()}
 * must run on the thread that locked.
 *
 * <p>
 * ZooKeeper failures surface as {@link LockAcquisitionException} (unchecked). {@link #tryLock()}
 * and {@link #tryLock(long, TimeUnit)} keep {@link Lock}'s contract and return {@code false} when
 * they cannot lock: a cycle of waits of this process is never thrown there as a
 * {@link LockDeadlockException} (a bounded wait can always give up), and
 * {@link ILockByCurator#lastRefusal()} says why; {@link #lock()} and {@link #lockInterruptibly()}
 * throw it for a cycle that no thread on it can leave. {@link #newCondition()} is not supported.
 */
final class ZooKeeperLock implements Lock {

	private final ILockByCurator locks;

	private final String lockPath;

	private final LockMode mode;

	ZooKeeperLock(ILockByCurator locks, String lockPath, LockMode mode) {
		this.locks = locks;
		this.lockPath = LockPaths.normalize(lockPath);
		this.mode = mode;
	}

	@Override
	public void lock() {
		ThreadBoundLocks.acquire(this.locks, LockRequest.of(this.lockPath, this.mode).uninterruptibly());
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking '" + this.lockPath + "'");
		}
		rethrowInterrupt(() -> {
			ThreadBoundLocks.acquire(this.locks, LockRequest.of(this.lockPath, this.mode));
			return true;
		});
	}

	@Override
	public boolean tryLock() {
		return ThreadBoundLocks.tryAcquire(this.locks, LockRequest.of(this.lockPath, this.mode).waitAtMost(Duration.ZERO));
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking '" + this.lockPath + "'");
		}
		Duration wait = Duration.ofNanos(Math.max(0, unit.toNanos(time)));
		return rethrowInterrupt(() -> ThreadBoundLocks.tryAcquire(this.locks,
				LockRequest.of(this.lockPath, this.mode).waitAtMost(wait)));
	}

	/**
	 * Releases one hold of the current thread.
	 * @throws IllegalMonitorStateException if the current thread does not hold the lock
	 */
	@Override
	public void unlock() {
		ThreadBoundLocks.release(this.locks, this.lockPath);
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

	/** Turns the interrupt that ended an acquire back into an {@link InterruptedException}. */
	private static boolean rethrowInterrupt(BooleanSupplier acquire) throws InterruptedException {
		try {
			return acquire.getAsBoolean();
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
	public String toString() {
		return "ZooKeeperLock[" + this.mode + " '" + this.lockPath + "']";
	}

}
