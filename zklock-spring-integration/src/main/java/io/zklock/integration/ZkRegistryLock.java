package io.zklock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockState;
import io.zklock.lock.ReleaseResult;
import org.jspecify.annotations.Nullable;

/**
 * The {@link FencedLock} that {@link ZkLockRegistry#obtain(Object)} hands out: a view of one
 * lock path, holding nothing itself. Each thread's holds live in the registry's per-thread
 * state, so views are cheap and need no cache that could evict a held lock.
 *
 * <p>
 * A hold that is in doubt or lost is never re-entered: {@code tryLock} from its owner answers
 * {@code false} and gives the hold up (deleting its lock node if it still exists), so every
 * Spring Integration consumer notices the loss, the leader initiator's heartbeat included;
 * {@code lock()} gives it up and queues again. The {@code unlock()} that ends a lost hold
 * throws {@link ConcurrentModificationException}, as Spring Integration's JDBC and Redis
 * registries do for an expired lock.
 */
class ZkRegistryLock implements FencedLock {

	private final ZkLockRegistry registry;

	private final String key;

	private final String lockPath;

	ZkRegistryLock(ZkLockRegistry registry, String key, String lockPath) {
		this.registry = registry;
		this.key = key;
		this.lockPath = lockPath;
	}

	/** The lock path under zklock's lock root, such as {@code "spring-integration/orders%2F42"}. */
	String lockPath() {
		return this.lockPath;
	}

	/** The key as the caller gave it. */
	String key() {
		return this.key;
	}

	/** Waits without limit, through interrupts (the flag is set again when it returns). */
	@Override
	public void lock() {
		acquireUninterruptibly();
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		acquire(null, true, false, null);
	}

	/** One try, without waiting: {@code false} if another holder has the lock. */
	@Override
	public boolean tryLock() {
		try {
			return acquire(Duration.ZERO, false, true, null);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException("Unreachable: an uninterruptible acquire was interrupted", ex);
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		return acquire(Duration.ofNanos(Math.max(0, unit.toNanos(time))), true, true, null);
	}

	/** Waits without limit through interrupts. */
	final void acquireUninterruptibly() {
		acquireUninterruptibly(null);
	}

	/**
	 * Waits without limit through interrupts.
	 * @param maxHold the bound on the new hold (see {@link #acquire}), {@code null} for none
	 */
	final void acquireUninterruptibly(@Nullable Duration maxHold) {
		try {
			acquire(null, false, false, maxHold);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException("Unreachable: an uninterruptible acquire was interrupted", ex);
		}
	}

	/**
	 * Acquires for the current thread.
	 * @param wait the longest wait, {@code null} for none
	 * @param interruptible whether an interrupt ends the wait
	 * @param reportLoss whether a hold found in doubt or lost answers {@code false} ({@code tryLock})
	 * instead of queueing again ({@code lock})
	 * @param maxHold the bound on this hold ({@link io.zklock.lock.LockRequest#holdAtMost(Duration)}:
	 * reported when it passes, never released for it), {@code null} for none; a reentrant entry
	 * is bounded from its own grant
	 */
	final boolean acquire(@Nullable Duration wait, boolean interruptible, boolean reportLoss,
			@Nullable Duration maxHold) throws InterruptedException {
		if (interruptible && Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking '" + this.key + "' (lock path '"
					+ this.lockPath + "')");
		}
		ThreadHolds.PerThread perThread = this.registry.threadHolds();
		ThreadHolds holds = perThread.of(this.lockPath);
		try {
			LockHandle top = holds.handles.peek();
			if (top != null) {
				if (top.isHeld()) {
					Optional<LockHandle> joined = join(maxHold);
					if (joined.isPresent()) {
						holds.handles.push(joined.get());
						return true;
					}
				}
				this.registry.giveUp(this.key, holds);
				if (reportLoss) {
					return false;
				}
			}
			Optional<LockHandle> handle = this.registry.request(this.lockPath, wait, interruptible, maxHold);
			handle.ifPresent(holds.handles::push);
			return handle.isPresent();
		}
		catch (LockAcquisitionException ex) {
			if (interruptible && ex.getCause() instanceof InterruptedException interrupted) {
				Thread.interrupted();
				throw interrupted;
			}
			throw ex;
		}
		finally {
			perThread.tidy(this.lockPath, holds);
		}
	}

	/**
	 * Joins the current thread's held hold, locally; empty if the hold turned in doubt or lost
	 * meanwhile (the engine refuses to re-enter it).
	 */
	private Optional<LockHandle> join(@Nullable Duration maxHold) {
		try {
			return this.registry.request(this.lockPath, Duration.ZERO, false, maxHold);
		}
		catch (LockAcquisitionException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Releases the current thread's innermost hold.
	 * @throws IllegalMonitorStateException if the current thread does not hold this lock
	 * @throws ConcurrentModificationException if this unlock ends a hold that was lost (its
	 * session expired, or ownership could not be confirmed after a reconnect), or that is in
	 * doubt while the connection is still down: the work done under it may have overlapped
	 * another holder's
	 */
	@Override
	public void unlock() {
		ThreadHolds.PerThread perThread = this.registry.threadHolds();
		ThreadHolds holds = perThread.find(this.lockPath);
		if (holds == null) {
			throw new IllegalMonitorStateException("Thread '" + Thread.currentThread().getName()
					+ "' does not hold the lock '" + this.key + "' (lock path '" + this.lockPath
					+ "'); unlock on the thread that locked, once per lock");
		}
		try {
			LockHandle handle = holds.handles.poll();
			if (handle != null) {
				LockState before = handle.state();
				ReleaseResult result = handle.release();
				if (result == ReleaseResult.LOST
						|| (before != LockState.HELD && result == ReleaseResult.CLEANUP_PENDING)) {
					throw lost(handle.fencingToken());
				}
				return;
			}
			holds.lostUnlocksOwed--;
			if (holds.lostUnlocksOwed == 0) {
				throw lost(holds.lostToken);
			}
		}
		finally {
			perThread.tidy(this.lockPath, holds);
		}
	}

	private ConcurrentModificationException lost(long fencingToken) {
		return new ConcurrentModificationException("The lock '" + this.key + "' (lock path '" + this.lockPath
				+ "', fencing token " + fencingToken + ") was lost while held: its ZooKeeper session expired, or "
				+ "its connection was suspended and not confirmed again, so another process may have held it "
				+ "meanwhile. The integrity of data protected by this lock may have been compromised; pass "
				+ "fencingToken() to what you write so a resource can refuse a stale holder");
	}

	@Override
	public long fencingToken() {
		ThreadHolds holds = this.registry.threadHolds().find(this.lockPath);
		LockHandle top = (holds != null) ? holds.handles.peek() : null;
		if (top == null) {
			throw new IllegalStateException("Thread '" + Thread.currentThread().getName() + "' does not hold the lock '"
					+ this.key + "' (lock path '" + this.lockPath + "'): lock it first, on this thread");
		}
		LockState state = top.state();
		if (state != LockState.HELD) {
			throw new IllegalStateException("The lock '" + this.key + "' (lock path '" + this.lockPath
					+ "', fencing token " + top.fencingToken() + ") is " + state + ": another process may hold it "
					+ "now; unlock, then lock again");
		}
		return top.fencingToken();
	}

	@Override
	public boolean isHeldByCurrentThread() {
		ThreadHolds holds = this.registry.threadHolds().find(this.lockPath);
		LockHandle top = (holds != null) ? holds.handles.peek() : null;
		return top != null && top.isHeld();
	}

	/**
	 * Not supported.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("A ZooKeeper lock ('" + this.key + "') has no Condition: a signal "
				+ "that crosses processes is not part of the lock recipe");
	}

	@Override
	public String toString() {
		return "ZkLockRegistry lock '" + this.key + "' (lock path '" + this.lockPath + "')";
	}

}
