package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lock node this client holds: a call's, or a thread's shared by that thread's reentrant
 * acquires of the same lock path. The entry count is local: re-entering costs no ZooKeeper
 * call. Thread-safe; its state changes under its own monitor, which is never held while
 * waiting.
 */
final class LockHold implements GuardedHold {

	private static final Logger logger = LoggerFactory.getLogger(LockHold.class);

	private final LockTarget target;

	private final GrantedNode node;

	private final HoldOwner owner;

	private final Thread holderThread;

	private final Instant acquiredAt = Instant.now();

	private final long acquiredNanos = System.nanoTime();

	private final List<Runnable> lossCallbacks = new ArrayList<>();

	private int entries = 1;

	private boolean released;

	private LockState state = LockState.HELD;

	LockHold(LockTarget target, GrantedNode node, HoldOwner owner, Thread holderThread) {
		this.target = target;
		this.node = node;
		this.owner = owner;
		this.holderThread = holderThread;
	}

	LockTarget target() {
		return this.target;
	}

	String lockPath() {
		return this.target.lockPath();
	}

	LockMode mode() {
		return this.target.mode();
	}

	HoldOwner owner() {
		return this.owner;
	}

	Thread holderThread() {
		return this.holderThread;
	}

	Instant acquiredAt() {
		return this.acquiredAt;
	}

	@Override
	public long sessionId() {
		return this.node.sessionId();
	}

	@Override
	public String nodePath() {
		return this.node.nodePath();
	}

	long fencingToken() {
		return this.node.fencingToken();
	}

	/** Time since the grant, on {@link System#nanoTime()}. */
	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	synchronized HeldLock snapshot() {
		return new HeldLock(this.target.lockPath(), this.target.lockName(), this.target.mode(),
				this.node.fencingToken(), this.node.nodePath(), this.acquiredAt, this.owner,
				this.holderThread.getName(), this.holderThread.getId(), this.entries, state());
	}

	/** Counts one more reentrant acquire; {@code false} if the hold was released meanwhile. */
	synchronized boolean enter() {
		if (this.released) {
			return false;
		}
		this.entries++;
		return true;
	}

	/** Counts one release; {@code true} if that was the last entry and the node must go. */
	synchronized boolean exit() {
		if (this.released) {
			return false;
		}
		this.entries--;
		if (this.entries == 0) {
			this.released = true;
			return true;
		}
		return false;
	}

	@Override
	public synchronized LockState state() {
		return this.released ? LockState.RELEASED : this.state;
	}

	@Override
	public boolean degrade(LockState next) {
		List<Runnable> callbacks;
		boolean lost;
		synchronized (this) {
			if (this.released || this.state == LockState.LOST || this.state == next) {
				return false;
			}
			callbacks = (this.state == LockState.HELD) ? List.copyOf(this.lossCallbacks) : List.of();
			this.state = next;
			lost = next == LockState.LOST;
		}
		callbacks.forEach(LockHold::runQuietly);
		return lost;
	}

	@Override
	public synchronized void confirm(BooleanSupplier stillValid) {
		if (!this.released && this.state == LockState.IN_DOUBT && stillValid.getAsBoolean()) {
			this.state = LockState.HELD;
		}
	}

	/**
	 * Registers a callback for the next time the lock stops being HELD.
	 * @return {@code true} if registered; {@code false} if the lock is not HELD now (the caller
	 * runs the callback itself)
	 */
	synchronized boolean addLossCallback(Runnable callback) {
		if (this.released) {
			return true;
		}
		this.lossCallbacks.add(callback);
		return this.state == LockState.HELD;
	}

	synchronized void removeLossCallback(Runnable callback) {
		this.lossCallbacks.remove(callback);
	}

	private static void runQuietly(Runnable callback) {
		try {
			callback.run();
		}
		catch (RuntimeException ex) {
			logger.warn("A lock-loss callback failed", ex);
		}
	}

	@Override
	public String toString() {
		return this.target.mode() + " '" + this.target.lockPath() + "' (" + this.node.nodePath() + ", fencing token "
				+ this.node.fencingToken() + ", " + state() + ")";
	}

}
