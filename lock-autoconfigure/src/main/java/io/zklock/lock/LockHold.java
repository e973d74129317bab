package io.zklock.lock;

import java.time.Instant;

/**
 * One lock node held by one thread, shared by that thread's reentrant acquires of the
 * same lock path. The hold count is local: re-entering costs no ZooKeeper call.
 */
final class LockHold {

	private final String lockPath;

	private final LockMode mode;

	private final LockNodeQueue.HeldNode node;

	private final Thread owner;

	private final Instant acquiredAt = Instant.now();

	private int holdCount = 1;

	private boolean released;

	LockHold(String lockPath, LockMode mode, LockNodeQueue.HeldNode node, Thread owner) {
		this.lockPath = lockPath;
		this.mode = mode;
		this.node = node;
		this.owner = owner;
	}

	String lockPath() {
		return this.lockPath;
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

}
