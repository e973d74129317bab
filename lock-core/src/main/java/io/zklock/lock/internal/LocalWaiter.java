package io.zklock.lock.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * One acquire waiting in a {@link LocalChain}'s FIFO for its turn: a lock node handed to it, or
 * the lead (to queue in ZooKeeper with a node of its own). The chain gives the turn under its
 * lock; a waiter that gave up under that lock never gets one (the chain passes it on). Thread-safe.
 */
final class LocalWaiter {

	private final CompletableFuture<Turn> turn = new CompletableFuture<>();

	/** Guarded by the chain's lock. */
	private boolean gaveUp;

	/**
	 * The order in which it joined its chain, given by the chain; guarded by the chain's lock. A
	 * token written ahead goes only to a waiter that joined before the write was reserved.
	 */
	long ticket;

	/** Guarded by the chain's lock: gives the turn, or {@code false} if this waiter gave up. */
	boolean offer(Turn next) {
		if (this.gaveUp) {
			return false;
		}
		this.turn.complete(next);
		return true;
	}

	/** Guarded by the chain's lock: whether it gave up (a turn offered now is refused). */
	boolean hasGivenUp() {
		return this.gaveUp;
	}

	/** Guarded by the chain's lock: gives up, unless the turn came already. */
	@Nullable Turn giveUp() {
		if (this.turn.isDone()) {
			return this.turn.join();
		}
		this.gaveUp = true;
		return null;
	}

	/**
	 * Waits for the turn until {@code deadline}.
	 * @return the turn, or {@code null} if the deadline passed first
	 * @throws InterruptedException if interrupted
	 */
	@Nullable Turn await(Deadline deadline) throws InterruptedException {
		try {
			if (deadline.isInfinite()) {
				return this.turn.get();
			}
			return this.turn.get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			return null;
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A waiter's turn.
	 * @param token the lock node handed to the waiter with its new fencing token, or {@code null}:
	 * the waiter leads, that is queues in ZooKeeper with a node of its own
	 */
	record Turn(@Nullable HandoffToken token) {

		static final Turn LEAD = new Turn(null);

		/** The lock node handed to the waiter, or {@code null} if it leads. */
		@Nullable GrantedNode node() {
			return (this.token != null) ? this.token.node() : null;
		}

	}

}
