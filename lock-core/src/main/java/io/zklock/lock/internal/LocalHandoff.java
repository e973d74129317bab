package io.zklock.lock.internal;

import java.time.Duration;

import io.zklock.internal.Durations;
import io.zklock.lock.LockMode;

/**
 * Whether, and how far, a lock engine hands a held lock node from one of its holders to the
 * next of its own waiters without giving the node up: <em>local handoff</em>, lock cohorting
 * after Dice, Marathe and Shavit ("Lock Cohorting", PPoPP 2012) and Chubby's lock caching
 * (Burrows, OSDI 2006).
 *
 * <p>
 * When on, the {@link LockMode#EXCLUSIVE} and {@link LockMode#WRITE} acquires of one engine for one
 * lock path share one lock node: later ones wait in memory behind the one that created it, and a
 * release hands the node to the next of them with one ZooKeeper write (a {@code multi} that checks
 * the node and writes the lock path, whose zxid is the new holder's fencing token) instead of a
 * delete, a create and a listing. Each holder is still a holder of its own (its own handle, token
 * and events); thread-owned reentrancy is unchanged. A chain of handoffs ends after
 * {@link #maxHandoffs()} handoffs or {@link #maxTime()} since the node's grant, whichever comes
 * first: the node is then deleted and the waiters left queue again behind other processes'
 * waiters. {@link LockMode#READ} acquires always take the ordinary path. The soundness argument is
 * in zklock's docs/lock-protocol.md.
 *
 * <p>
 * Immutable and thread-safe.
 *
 * @param enabled whether local handoff is on
 * @param maxHandoffs the most handoffs of one lock node before it is given up, at least 1
 * @param maxTime the longest time from a lock node's grant after which it is no longer handed
 * on, positive
 */
public record LocalHandoff(boolean enabled, int maxHandoffs, Duration maxTime) {

	/** The default bound on handoffs of one lock node: {@value}. */
	public static final int DEFAULT_MAX_HANDOFFS = 32;

	/** The default bound on the time a lock node is handed on: 50 ms. */
	public static final Duration DEFAULT_MAX_TIME = Duration.ofMillis(50);

	/**
	 * Checks the bounds.
	 * @throws IllegalArgumentException if {@code maxHandoffs} is below 1, or {@code maxTime} is
	 * {@code null}, zero or negative
	 */
	public LocalHandoff {
		if (maxHandoffs < 1) {
			throw new IllegalArgumentException("Local handoff max-handoffs " + maxHandoffs
					+ " is invalid: it must be at least 1 (turn local handoff off to hand no lock node on)");
		}
		if (maxTime == null || maxTime.isZero() || maxTime.isNegative()) {
			throw new IllegalArgumentException("Local handoff max-time " + ((maxTime != null) ? Durations.format(maxTime)
					: "null") + " is invalid: it must be positive, such as 50ms");
		}
	}

	/**
	 * Local handoff off: every acquire creates its own lock node.
	 * @return the setting
	 */
	public static LocalHandoff off() {
		return new LocalHandoff(false, DEFAULT_MAX_HANDOFFS, DEFAULT_MAX_TIME);
	}

	/**
	 * Local handoff on, with the default bounds.
	 * @return the setting
	 */
	public static LocalHandoff on() {
		return new LocalHandoff(true, DEFAULT_MAX_HANDOFFS, DEFAULT_MAX_TIME);
	}

	/**
	 * The setting a lock engine uses when none is given: off for now. zklock's benchmarks favour on (about 18-20 times Curator's handoffs per second with 8 threads in each of 4
	 * processes, at 1.15 ZooKeeper requests per handoff); what on changes is the queue's shape (one
	 * lock node per process and lock path instead of one per waiting thread) and the order across
	 * processes (a process's own waiters may pass another process's earlier waiter, up to the bound).
	 * @return {@link #off()}
	 */
	public static LocalHandoff defaults() {
		return off();
	}

	/**
	 * The setting in words, for the engine's {@code toString()}.
	 * @return {@code "local handoff off"}, or for example
	 * {@code "local handoff on (at most 32 handoffs, 50ms)"}
	 */
	@Override
	public String toString() {
		return this.enabled
				? "local handoff on (at most " + this.maxHandoffs + " handoffs, " + Durations.format(this.maxTime) + ")"
				: "local handoff off";
	}

}
