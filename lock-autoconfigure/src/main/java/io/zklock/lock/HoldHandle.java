package io.zklock.lock;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link LockHandle} over one {@link LockHold}; releasing it counts the hold down once. */
final class HoldHandle implements LockHandle {

	private final LockCoordinator coordinator;

	private final LockHold hold;

	private final AtomicBoolean released = new AtomicBoolean();

	HoldHandle(LockCoordinator coordinator, LockHold hold) {
		this.coordinator = coordinator;
		this.hold = hold;
	}

	@Override
	public String lockPath() {
		return this.hold.lockPath();
	}

	@Override
	public String lockName() {
		return this.hold.lockName();
	}

	@Override
	public String nodePath() {
		return this.hold.node().nodePath();
	}

	@Override
	public LockMode mode() {
		return this.hold.mode();
	}

	@Override
	public long fencingToken() {
		return this.hold.node().fencingToken();
	}

	@Override
	public Instant acquiredAt() {
		return this.hold.acquiredAt();
	}

	@Override
	public boolean isHeld() {
		return !this.released.get() && !this.hold.isReleased();
	}

	@Override
	public ReleaseResult release() {
		if (!this.released.compareAndSet(false, true)) {
			return ReleaseResult.ALREADY_RELEASED;
		}
		return this.coordinator.release(this.hold);
	}

	@Override
	public String toString() {
		return "LockHandle[" + this.hold.mode() + " '" + this.hold.lockPath() + "', fencing token "
				+ this.hold.node().fencingToken() + (isHeld() ? ", held]" : ", released]");
	}

}
