package io.zklock.lock;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** A {@link LockHandle} over one entry of a {@link LockHold}; releasing it counts the hold down once. */
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
		return this.hold.target().lockName();
	}

	@Override
	public String nodePath() {
		return this.hold.nodePath();
	}

	@Override
	public LockMode mode() {
		return this.hold.mode();
	}

	@Override
	public HoldOwner owner() {
		return this.hold.owner();
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken();
	}

	@Override
	public Instant acquiredAt() {
		return this.hold.acquiredAt();
	}

	@Override
	public boolean isHeld() {
		return state() == LockState.HELD;
	}

	@Override
	public LockState state() {
		return this.released.get() ? LockState.RELEASED : this.hold.state();
	}

	@Override
	public Runnable onLost(Consumer<LockHandle> listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Lock-loss listener of '" + lockPath() + "' must not be null");
		}
		Runnable callback = () -> listener.accept(this);
		if (!this.hold.addLossCallback(callback) && !this.released.get()) {
			callback.run();
		}
		return () -> this.hold.removeLossCallback(callback);
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
				+ this.hold.fencingToken() + ", " + this.hold.owner() + "-owned, " + state() + "]";
	}

}
