package io.zklock.lock.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.zklock.lock.LockState;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * One permit lease node this client holds, guarded like a lock node by the
 * {@link SessionGuard}. Thread-safe.
 */
final class PermitHold implements PermitLease, GuardedHold {

	private final String path;

	private final int permits;

	private final String nodeName;

	private final String nodePath;

	private final long sessionId;

	private final CuratorFramework client;

	private final SessionGuard guard;

	private final Instant acquiredAt = Instant.now();

	private final List<Runnable> lossCallbacks = new ArrayList<>();

	private LockState state = LockState.HELD;

	/** When the lease went IN_DOUBT last, on {@link System#nanoTime()}. */
	private long inDoubtSince;

	PermitHold(String path, int permits, String leasesPath, String nodeName, long sessionId, CuratorFramework client,
			SessionGuard guard) {
		this.path = path;
		this.permits = permits;
		this.nodeName = nodeName;
		this.nodePath = ZKPaths.makePath(leasesPath, nodeName);
		this.sessionId = sessionId;
		this.client = client;
		this.guard = guard;
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public int permits() {
		return this.permits;
	}

	@Override
	public String nodeName() {
		return this.nodeName;
	}

	@Override
	public Instant acquiredAt() {
		return this.acquiredAt;
	}

	@Override
	public boolean isHeld() {
		return state() == LockState.HELD;
	}

	@Override
	public synchronized LockState state() {
		return this.state;
	}

	@Override
	public long sessionId() {
		return this.sessionId;
	}

	@Override
	public String nodePath() {
		return this.nodePath;
	}

	@Override
	public @Nullable LockState degrade(LockState next) {
		List<Runnable> callbacks;
		LockState left;
		synchronized (this) {
			if (this.state == LockState.RELEASED || this.state == LockState.LOST || this.state == next) {
				return null;
			}
			left = this.state;
			callbacks = (left == LockState.HELD) ? List.copyOf(this.lossCallbacks) : List.of();
			this.state = next;
			this.inDoubtSince = System.nanoTime();
		}
		callbacks.forEach(Runnable::run);
		return left;
	}

	@Override
	public Runnable onLost(Consumer<PermitLease> listener) {
		if (listener == null) {
			throw new IllegalArgumentException("Lease-loss listener of semaphore '" + this.path + "' must not be null");
		}
		Runnable callback = () -> listener.accept(this);
		boolean held;
		synchronized (this) {
			this.lossCallbacks.add(callback);
			held = this.state == LockState.HELD || this.state == LockState.RELEASED;
		}
		if (!held) {
			callback.run();
		}
		return () -> {
			synchronized (this) {
				this.lossCallbacks.remove(callback);
			}
		};
	}

	@Override
	public synchronized @Nullable Duration confirm(BooleanSupplier stillValid) {
		if (this.state == LockState.IN_DOUBT && stillValid.getAsBoolean()) {
			this.state = LockState.HELD;
			return Duration.ofNanos(System.nanoTime() - this.inDoubtSince);
		}
		return null;
	}

	@Override
	public ReleaseResult release() {
		LockState before;
		synchronized (this) {
			before = this.state;
			if (before == LockState.RELEASED) {
				return ReleaseResult.ALREADY_RELEASED;
			}
			this.state = LockState.RELEASED;
		}
		this.guard.unregister(this);
		ReleaseResult result = NodeDeletion.delete(this.client, this.guard, this.nodePath);
		return (before == LockState.LOST) ? ReleaseResult.LOST : result;
	}

	@Override
	public String toString() {
		return "PermitLease['" + this.path + "', 1 of " + this.permits + ", " + this.nodeName + ", " + state() + "]";
	}

}
