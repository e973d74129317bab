package io.zklock.benchmarks.load;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import io.zklock.lock.LockMode;

/**
 * Checks, inside every critical section, that the lock excluded what it must: no second holder
 * beside an exclusive or write holder of the same key. A benchmark of a lock that does not lock
 * would be meaningless, so a run with any violation fails.
 */
final class ExclusionCheck {

	private final AtomicIntegerArray exclusiveHolders;

	private final AtomicIntegerArray readHolders;

	private final AtomicLong violations = new AtomicLong();

	ExclusionCheck() {
		this(1);
	}

	/**
	 * A check of {@code keys} locks, numbered from 0.
	 * @param keys how many
	 */
	ExclusionCheck(int keys) {
		this.exclusiveHolders = new AtomicIntegerArray(keys);
		this.readHolders = new AtomicIntegerArray(keys);
	}

	/** Called right after the lock of key 0 was acquired. */
	void enter(LockMode mode) {
		enter(0, mode);
	}

	/** Called right before the lock of key 0 is released. */
	void exit(LockMode mode) {
		exit(0, mode);
	}

	/** Called right after the lock of a key was acquired. */
	void enter(int key, LockMode mode) {
		if (mode == LockMode.READ) {
			this.readHolders.incrementAndGet(key);
			if (this.exclusiveHolders.get(key) != 0) {
				this.violations.incrementAndGet();
			}
		}
		else {
			if (this.exclusiveHolders.incrementAndGet(key) != 1 || this.readHolders.get(key) != 0) {
				this.violations.incrementAndGet();
			}
		}
	}

	/** Called right before the lock of a key is released. */
	void exit(int key, LockMode mode) {
		if (mode == LockMode.READ) {
			this.readHolders.decrementAndGet(key);
		}
		else {
			this.exclusiveHolders.decrementAndGet(key);
		}
	}

	/**
	 * The violations seen.
	 * @return how often a holder found a holder it must exclude
	 */
	long violations() {
		return this.violations.get();
	}

}
