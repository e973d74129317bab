package io.zklock.test.history;

/**
 * Two holds of one lock path, in modes that exclude each other, held at the same time.
 *
 * @param first the hold that started first
 * @param second the hold that started while {@code first} was held
 */
public record Overlap(HeldInterval first, HeldInterval second) {

	/**
	 * The overlap in words, with both holds and the time they shared.
	 * @param origin the moment that counts as 0 ms, on {@link System#nanoTime()}
	 * @return several lines: the lock path, then each hold
	 */
	public String describe(long origin) {
		long shared = Math.min(this.first.end(), this.second.end()) - this.second.start();
		return "Lock path '" + this.first.lockPath() + "' held twice at once"
				+ ((shared >= 0 && this.first.end() != Long.MAX_VALUE && this.second.end() != Long.MAX_VALUE)
						? " for " + HeldInterval.millis(shared) : "")
				+ ":\n      " + this.first.describe(origin) + "\n      " + this.second.describe(origin);
	}

}
