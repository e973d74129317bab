package io.zklock.fault.register;

/**
 * What the {@link FencedRegister} holds and decided for one key.
 *
 * @param key the key (the lock path)
 * @param value the counter's final value
 * @param highestToken the largest fencing token seen in a read or an accepted write
 * @param reads reads served
 * @param acceptedWrites writes accepted, stale ones included
 * @param rejectedStale stale writes refused by the token check
 * @param acceptedStale stale writes accepted (only with the check switched off)
 */
public record KeyStats(String key, long value, long highestToken, long reads, long acceptedWrites,
		long rejectedStale, long acceptedStale) {

	/**
	 * Whether an update was lost: every accepted write stores the counter it read plus one, so
	 * without lost updates the counter equals the number of accepted writes.
	 */
	public boolean lostUpdate() {
		return this.value != this.acceptedWrites;
	}

	KeyStats plus(KeyStats other) {
		return new KeyStats(this.key, this.value + other.value, Math.max(this.highestToken, other.highestToken),
				this.reads + other.reads, this.acceptedWrites + other.acceptedWrites,
				this.rejectedStale + other.rejectedStale, this.acceptedStale + other.acceptedStale);
	}

}
