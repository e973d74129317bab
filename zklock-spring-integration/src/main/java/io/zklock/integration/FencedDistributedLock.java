package io.zklock.integration;

import java.time.Duration;

import org.springframework.integration.support.locks.DistributedLock;

/**
 * A {@link FencedLock} that is also Spring Integration 7's {@link DistributedLock}: what
 * {@link ZkLockRegistry#obtain(Object)} hands out when Spring Integration 7 is on the class path
 * (this type exists only there; with Spring Integration 6.5 the registry hands out plain
 * {@link FencedLock}s).
 *
 * <p>
 * {@code ttl} is a bound on the hold, not a lease. A ZooKeeper lock has no time to live: its
 * lock node lasts as long as the holder's session, which the client keeps alive while the
 * process runs, and goes when the process dies or is cut off past its session timeout. So
 * {@link #lock(Duration)} and {@link #tryLock(Duration, Duration)} lock as {@link #lock()} and
 * {@link #tryLock(long, java.util.concurrent.TimeUnit)} do and watch the hold: when it has
 * lasted {@code ttl} from its grant and is not unlocked yet, zklock says so loudly (a WARN naming
 * the lock, its fencing token and the holder thread with its stack;
 * {@link io.zklock.lock.event.LockListener#onHoldExceeded} with {@code released = false}, which the
 * {@code zklock.hold.exceeded} meter counts) and keeps the lock held: the holder may still be
 * working under it, and a lock that frees itself under running work lets a second holder in
 * (Spring Integration's JDBC and Redis registries do expire it after {@code ttl}; their
 * {@code unlock()} then throws). The hold ends as any other: at the last {@code unlock()}, or
 * with the session. Built on {@link io.zklock.lock.LockRequest#holdAtMost(Duration)}.
 *
 * <pre class="code">
 * FencedDistributedLock lock = (FencedDistributedLock) registry.obtain("nightly-report");
 * if (lock.tryLock(Duration.ofSeconds(5), Duration.ofMinutes(30))) {
 *     try {
 *         report.run(lock.fencingToken());
 *     }
 *     finally {
 *         lock.unlock();
 *     }
 * }
 * </pre>
 *
 * Thread-owned and reentrant as {@link FencedLock}; a reentrant {@code lock(ttl)} bounds its own
 * entry, from its own grant.
 */
public interface FencedDistributedLock extends FencedLock, DistributedLock {

	/**
	 * Locks as {@link #lock()} does (waits without limit, through interrupts), the hold bounded
	 * by {@code ttl}: reported when it passes, never released for it.
	 * @param ttl the longest expected hold, from its grant; positive
	 * @throws IllegalArgumentException if {@code ttl} is {@code null}, zero or negative
	 */
	@Override
	void lock(Duration ttl);

	/**
	 * Locks as {@link #tryLock(long, java.util.concurrent.TimeUnit)} does, the hold bounded by
	 * {@code ttl}: reported when it passes, never released for it.
	 * @param waitTime the longest wait; zero or negative tries once
	 * @param ttl the longest expected hold, from its grant; positive
	 * @return {@code true} if locked, {@code false} if the wait ran out, or if the current
	 * thread's hold of this lock is in doubt or lost (then given up, as {@code tryLock} does)
	 * @throws InterruptedException if the thread is interrupted while waiting
	 * @throws IllegalArgumentException if {@code waitTime} is {@code null}, or {@code ttl}
	 * {@code null}, zero or negative
	 */
	@Override
	boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException;

}
