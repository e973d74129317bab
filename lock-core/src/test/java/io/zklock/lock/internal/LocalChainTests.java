package io.zklock.lock.internal;

import java.time.Duration;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.event.LockTarget;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which token written ahead a {@link LocalChain} may hand to its next waiter (docs/lock-protocol.md, "The handoff write"): only one whose write was reserved after the
 * waiter joined, only within the session's lease of the write, and nothing at all once a write
 * failed. Pure state, no server: instants on {@link System#nanoTime()} are given by the test.
 */
class LocalChainTests {

	private static final String NODE = "/locks/chain/_c_00000000-0000-0000-0000-000000000000-lock-0000000000";

	private static final long SESSION = 0x42;

	private static final int DEPTH = 3;

	private static final int MAX_HANDOFFS = 1000;

	private static final Duration MAX_TIME = Duration.ofMinutes(1);

	private final LocalChain chain = new LocalChain();

	private final LockHold holder = new LockHold(new LockTarget("chain", "chain", LockMode.EXCLUSIVE),
			new GrantedNode(NODE, 10, SESSION, 0), HoldOwner.CALL, Thread.currentThread(), null);

	@Test
	void shouldHandATokenWrittenAfterTheWaiterJoinedAndWithinTheLease() {
		startChain();
		LocalWaiter waiter = join();
		LocalChain.Writes writes = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		assertThat(writes.count()).isEqualTo(1);
		assertThat(this.chain.written(token(11, writes, 1_000), 0)).isFalse();

		LocalChain.Release release = this.chain.release(this.holder, LockState.HELD, MAX_HANDOFFS, MAX_TIME);
		assertThat(release.kind()).isEqualTo(LocalChain.Release.Kind.HAND_ON);
		assertThat(this.chain.handOn(release.next(), 500)).isEqualTo(LocalChain.HandOn.HANDED);
		assertThat(handedToken(waiter)).isEqualTo(11);
	}

	/**
	 * A waiter paused past the lease (a frozen process) must not be handed a token its chain wrote
	 * before: the session may have ended meanwhile. A write is sent for it instead.
	 */
	@Test
	void shouldNotHandATokenWrittenLongerAgoThanTheLease() {
		startChain();
		LocalWaiter waiter = join();
		LocalChain.Writes ahead = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		this.chain.written(token(11, ahead, 1_000), 0);

		LocalChain.Release release = this.chain.release(this.holder, LockState.HELD, MAX_HANDOFFS, MAX_TIME);
		assertThat(this.chain.handOn(release.next(), 2_000)).as("the token of 1 000 is stale at 2 000")
			.isEqualTo(LocalChain.HandOn.HANDED);
		assertThat(isHanded(waiter)).as("handed the stale token").isFalse();
		LocalChain.Writes fresh = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		assertThat(fresh.count()).as("a write for the waiter").isEqualTo(1);
		this.chain.written(token(12, fresh, 3_000), 2_000);
		assertThat(handedToken(waiter)).isEqualTo(12);
	}

	/**
	 * A token written for a waiter that gave up must not go to one that joined after the write: that
	 * acquire may have begun after a grant elsewhere that carries a larger token.
	 */
	@Test
	void shouldNotHandATokenWrittenBeforeTheWaiterJoined() {
		startChain();
		LocalWaiter gaveUp = join();
		LocalChain.Writes forIt = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		this.chain.written(token(11, forIt, 1_000), 0);
		assertThat(this.chain.giveUp(gaveUp)).isNull();
		LocalWaiter later = join();
		assertThat(this.chain.reserveWrites(DEPTH, MAX_HANDOFFS).count()).as("one token is ready already")
			.isZero();

		LocalChain.Release release = this.chain.release(this.holder, LockState.HELD, MAX_HANDOFFS, MAX_TIME);
		assertThat(release.next()).isSameAs(later);
		this.chain.handOn(later, 0);
		assertThat(isHanded(later)).as("handed the token written before it joined").isFalse();
		LocalChain.Writes fresh = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		assertThat(fresh.count()).isEqualTo(1);
		this.chain.written(token(12, fresh, 2_000), 0);
		assertThat(handedToken(later)).isEqualTo(12);
	}

	/** A token handed to a waiter that could not take it passes on only to a waiter that may take it. */
	@Test
	void shouldPassAnUnusedTokenOnlyToAWaiterThatMayTakeIt() throws InterruptedException {
		startChain();
		LocalWaiter first = join();
		LocalChain.Writes forFirst = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		LocalWaiter second = join();
		this.chain.written(token(11, forFirst, 1_000), 0);
		LocalChain.Release release = this.chain.release(this.holder, LockState.HELD, MAX_HANDOFFS, MAX_TIME);
		this.chain.handOn(release.next(), 0);
		HandoffToken unused = first.await(Deadline.never()).token();

		assertThat(this.chain.passOn(unused, 0)).isFalse();
		assertThat(isHanded(second)).as("the second joined after the write").isFalse();
		assertThat(this.chain.reserveWrites(DEPTH, MAX_HANDOFFS).count()).isPositive();
	}

	/** After a failed write nothing is handed, not even tokens written before it. */
	@Test
	void shouldHandNothingOnceAWriteFailed() {
		startChain();
		join();
		join();
		LocalChain.Writes writes = this.chain.reserveWrites(DEPTH, MAX_HANDOFFS);
		assertThat(writes.count()).isEqualTo(2);
		this.chain.written(token(11, writes, 1_000), 0);
		assertThat(this.chain.writeFailed(NODE)).as("no handoff waits for it yet").isNull();

		LocalChain.Release release = this.chain.release(this.holder, LockState.HELD, MAX_HANDOFFS, MAX_TIME);
		assertThat(release.kind()).isEqualTo(LocalChain.Release.Kind.DELETE_THEN_LEAD);
	}

	private void startChain() {
		LocalWaiter leader = new LocalWaiter();
		assertThat(this.chain.join(leader)).isTrue();
		this.chain.started(NODE, 10, SESSION);
	}

	private LocalWaiter join() {
		LocalWaiter waiter = new LocalWaiter();
		assertThat(this.chain.join(waiter)).isFalse();
		return waiter;
	}

	private static HandoffToken token(long zxid, LocalChain.Writes writes, long writtenAt) {
		return new HandoffToken(new GrantedNode(NODE, zxid, SESSION, 0), writes.ticketsBefore(), writtenAt);
	}

	private static boolean isHanded(LocalWaiter waiter) {
		try {
			return waiter.await(Deadline.after(Duration.ZERO)) != null;
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static long handedToken(LocalWaiter waiter) {
		try {
			LocalWaiter.Turn turn = waiter.await(Deadline.after(Duration.ZERO));
			assertThat(turn).as("the waiter's turn").isNotNull();
			return turn.node().fencingToken();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
