package io.zklock.test;

import java.time.Instant;
import java.util.function.Consumer;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.HeldLock;

/**
 * A read-only {@link LockHandle} over a hold that {@link LockAssert} found among the holds of
 * an {@link ILockByCurator} (not of an annotated call): it reads the hold's path, mode, token
 * and state, and leaves releasing to the handle or call that acquired it. Thread-safe.
 */
final class HeldLockView implements LockHandle {

	private final ILockByCurator locks;

	private final HeldLock held;

	HeldLockView(ILockByCurator locks, HeldLock held) {
		this.locks = locks;
		this.held = held;
	}

	@Override
	public String lockPath() {
		return this.held.lockPath();
	}

	@Override
	public String lockName() {
		return this.held.lockName();
	}

	@Override
	public String nodePath() {
		return this.held.nodePath();
	}

	@Override
	public HoldOwner owner() {
		return this.held.owner();
	}

	@Override
	public LockMode mode() {
		return this.held.mode();
	}

	@Override
	public long fencingToken() {
		return this.held.fencingToken();
	}

	@Override
	public Instant acquiredAt() {
		return this.held.acquiredAt();
	}

	@Override
	public boolean isHeld() {
		return state() == LockState.HELD;
	}

	/** The hold's state now, or {@link LockState#RELEASED} once its lock node is no longer held. */
	@Override
	public LockState state() {
		return this.locks.heldLocks()
			.stream()
			.filter((now) -> now.nodePath().equals(this.held.nodePath()))
			.map(HeldLock::state)
			.findFirst()
			.orElse(LockState.RELEASED);
	}

	@Override
	public Runnable onLost(Consumer<LockHandle> listener) {
		throw new UnsupportedOperationException("LockAssert's view of the lock on '" + lockPath()
				+ "' takes no listeners; register them on the handle that acquired it");
	}

	@Override
	public ReleaseResult release() {
		throw new UnsupportedOperationException("LockAssert's view of the lock on '" + lockPath()
				+ "' does not release it; release it through the handle or call that acquired it");
	}

	@Override
	public String toString() {
		return this.held.mode() + " '" + this.held.lockPath() + "' (" + this.held.owner().name().toLowerCase()
				+ "-owned, through ILockByCurator)";
	}

}
