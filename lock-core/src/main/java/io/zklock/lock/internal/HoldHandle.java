package io.zklock.lock.internal;

import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.function.Consumer;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.ReleaseResult;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockHandle} over one entry of a {@link LockHold}; releasing it counts the hold down
 * once. A thread-owned entry may be detached from its thread first. Nothing of the engine refers
 * to a handle strongly (its loss listeners and its hold-bound check reach it weakly), so a handle
 * its caller dropped unreleased is collected and reported ({@link LeakWatch}).
 */
final class HoldHandle implements LockHandle {

	private final LockRelease release;

	private final LockHold hold;

	/** Written under this handle's monitor. */
	private volatile boolean released;

	/** Written under this handle's monitor. */
	private volatile boolean detached;

	/** Runs at the release (stops the check of its hold bound). Guarded by this handle's monitor. */
	private Runnable onRelease = () -> {
	};

	/** Reports this handle if it becomes unreachable unreleased. */
	private final LeakWatch leak;

	HoldHandle(LockRelease release, LockHold hold) {
		this.release = release;
		this.hold = hold;
		this.leak = new LeakWatch(this, hold, release);
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
		return this.detached ? HoldOwner.CALL : this.hold.owner();
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
		return this.released ? LockState.RELEASED : this.hold.state();
	}

	@Override
	public Runnable onLost(Consumer<LockHandle> listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Lock-loss listener of '" + lockPath() + "' must not be null");
		}
		// the hold outlives an unreachable handle (it is the engine's): it refers to the handle
		// weakly, so that a handle dropped with a listener is still collected and reported
		WeakReference<HoldHandle> self = new WeakReference<>(this);
		Runnable callback = () -> {
			HoldHandle handle = self.get();
			if (handle != null) {
				listener.accept(handle);
			}
		};
		if (!this.hold.addLossCallback(callback) && !this.released) {
			callback.run();
		}
		LockHold hold = this.hold;
		return () -> hold.removeLossCallback(callback);
	}

	@Override
	public LockHandle detachFromThread() {
		synchronized (this) {
			if (!this.released && !this.detached && this.hold.owner() == HoldOwner.THREAD) {
				this.detached = true;
				this.release.detach(this.hold);
			}
		}
		return this;
	}

	@Override
	public ReleaseResult release() {
		boolean wasDetached;
		Runnable stop;
		synchronized (this) {
			if (this.released) {
				return ReleaseResult.ALREADY_RELEASED;
			}
			this.released = true;
			wasDetached = this.detached;
			stop = this.onRelease;
		}
		this.leak.released();
		stop.run();
		return this.release.release(this.hold, wasDetached);
	}

	/**
	 * Pins the hold for a guarded write ({@link LockHold#pin()}).
	 * @return what ends the pin, or {@code null} if this handle or its hold was released
	 */
	@Nullable Runnable pin() {
		if (this.released || !this.hold.pin()) {
			return null;
		}
		return this.hold::unpin;
	}

	/** Runs {@code action} when this handle is released, at once if it is already; must not throw. */
	void onRelease(Runnable action) {
		synchronized (this) {
			if (!this.released) {
				this.onRelease = action;
				return;
			}
		}
		action.run();
	}

	@Override
	public String toString() {
		return "LockHandle[" + this.hold.mode() + " '" + this.hold.lockPath() + "', fencing token "
				+ this.hold.fencingToken() + ", " + owner() + "-owned, " + state() + "]";
	}

}
