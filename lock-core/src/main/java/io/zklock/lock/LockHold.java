package io.zklock.lock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One lock node held by one thread, shared by that thread's reentrant acquires of the
 * same lock path. The hold count is local: re-entering costs no ZooKeeper call.
 */
final class LockHold {

	private final String lockPath;

	private final String lockName;

	private final LockMode mode;

	private final LockNodeQueue.HeldNode node;

	private final Thread owner;

	private final Instant acquiredAt = Instant.now();

	private int holdCount = 1;

	private boolean released;

	private LockState state = LockState.HELD;

	private final List<Runnable> lossCallbacks = new ArrayList<>();

	private final long acquiredNanos = System.nanoTime();

	LockHold(String lockPath, String lockName, LockMode mode, LockNodeQueue.HeldNode node, Thread owner) {
		this.lockPath = lockPath;
		this.lockName = lockName;
		this.mode = mode;
		this.node = node;
		this.owner = owner;
	}

	String lockPath() {
		return this.lockPath;
	}

	String lockName() {
		return this.lockName;
	}

	/** Time since the grant, on {@link System#nanoTime()}. */
	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	synchronized HeldLock snapshot() {
		return new HeldLock(this.lockPath, this.lockName, this.mode, this.node.fencingToken(), this.node.nodePath(),
				this.acquiredAt, this.owner.getName(), this.holdCount);
	}

	LockMode mode() {
		return this.mode;
	}

	LockNodeQueue.HeldNode node() {
		return this.node;
	}

	Thread owner() {
		return this.owner;
	}

	Instant acquiredAt() {
		return this.acquiredAt;
	}

	/** Counts one more reentrant acquire; {@code false} if the hold was released meanwhile. */
	synchronized boolean enter() {
		if (this.released) {
			return false;
		}
		this.holdCount++;
		return true;
	}

	/** Counts one release; {@code true} if that was the last one and the node must go. */
	synchronized boolean exit() {
		this.holdCount--;
		if (this.holdCount == 0) {
			this.released = true;
			return true;
		}
		return false;
	}

	synchronized boolean isReleased() {
		return this.released;
	}

	/** HELD, IN_DOUBT or LOST; RELEASED once the last hold was released. */
	synchronized LockState state() {
		return this.released ? LockState.RELEASED : this.state;
	}

	/**
	 * Moves to {@code next} (IN_DOUBT or LOST) unless already there, lost or released.
	 * @return {@code null} if nothing changed; else the callbacks to run, empty unless the lock
	 * just stopped being HELD
	 */
	synchronized List<Runnable> degrade(LockState next) {
		if (this.released || this.state == LockState.LOST || this.state == next) {
			return null;
		}
		boolean wasHeld = this.state == LockState.HELD;
		this.state = next;
		return wasHeld ? List.copyOf(this.lossCallbacks) : List.of();
	}

	/** Moves from IN_DOUBT back to HELD after ownership was confirmed. */
	synchronized boolean confirm() {
		if (this.released || this.state != LockState.IN_DOUBT) {
			return false;
		}
		this.state = LockState.HELD;
		return true;
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

}
