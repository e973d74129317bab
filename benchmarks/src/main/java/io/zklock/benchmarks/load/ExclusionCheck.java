package io.zklock.benchmarks.load;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.zklock.lock.LockMode;

/**
 * Checks, inside every critical section, that the lock excluded what it must: no second holder
 * beside an exclusive or write holder. A benchmark of a lock that does not lock would be
 * meaningless, so a run with any violation fails.
 */
final class ExclusionCheck {

	private final AtomicInteger exclusiveHolders = new AtomicInteger();

	private final AtomicInteger readHolders = new AtomicInteger();

	private final AtomicLong violations = new AtomicLong();

	/** Called right after the lock was acquired. */
	void enter(LockMode mode) {
		if (mode == LockMode.READ) {
			this.readHolders.incrementAndGet();
			if (this.exclusiveHolders.get() != 0) {
				this.violations.incrementAndGet();
			}
		}
		else {
			if (this.exclusiveHolders.incrementAndGet() != 1 || this.readHolders.get() != 0) {
				this.violations.incrementAndGet();
			}
		}
	}

	/** Called right before the lock is released. */
	void exit(LockMode mode) {
		if (mode == LockMode.READ) {
			this.readHolders.decrementAndGet();
		}
		else {
			this.exclusiveHolders.decrementAndGet();
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
