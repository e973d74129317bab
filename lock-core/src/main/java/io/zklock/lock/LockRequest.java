package io.zklock.lock;

import java.time.Duration;
import java.util.Optional;

import io.zklock.internal.Durations;
import io.zklock.internal.LockPaths;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.jspecify.annotations.Nullable;

/**
 * One request for a lock, the argument of the primitive
 * {@link ILockByCurator#tryAcquire(LockRequest)}: a lock path, a mode, how long to wait, who
 * owns the hold, and a name for metrics.
 *
 * <pre class="code">
 * locks.tryAcquire(LockRequest.of("orders/42", LockMode.EXCLUSIVE).waitAtMost(Duration.ofSeconds(5)));
 * </pre>
 *
 * A new request waits without limit, is call-owned ({@link HoldOwner#CALL}), interruptible,
 * has no bound on its hold, and is named after the first segment of its lock path. Immutable and thread-safe: each
 * {@code with…} method returns a new request.
 */
public final class LockRequest {

	private final String path;

	private final LockMode mode;

	private final @Nullable Duration maxWait;

	private final @Nullable String lockName;

	private final HoldOwner owner;

	private final boolean interruptible;

	private final @Nullable Duration maxHold;

	private final @Nullable HoldExceededReaction onHoldExceeded;

	private LockRequest(String path, LockMode mode, @Nullable Duration maxWait, @Nullable String lockName,
			HoldOwner owner, boolean interruptible, @Nullable Duration maxHold,
			@Nullable HoldExceededReaction onHoldExceeded) {
		this.path = path;
		this.mode = mode;
		this.maxWait = maxWait;
		this.lockName = lockName;
		this.owner = owner;
		this.interruptible = interruptible;
		this.maxHold = maxHold;
		this.onHoldExceeded = onHoldExceeded;
	}

	/**
	 * A call-owned request that waits without limit.
	 * @param path the lock path, such as {@code "orders/42"}; validated when the request is
	 * made, against the lock root
	 * @param mode the lock mode
	 * @return the request
	 * @throws IllegalArgumentException if the path or the mode is {@code null}
	 */
	public static LockRequest of(String path, LockMode mode) {
		if (path == null) {
			throw LockPaths.invalid(null, null, "it is null");
		}
		if (mode == null) {
			throw new IllegalArgumentException(
					"Lock mode must not be null for lock path '" + path + "'; use EXCLUSIVE, READ or WRITE");
		}
		return new LockRequest(path, mode, null, null, HoldOwner.CALL, true, null, null);
	}

	/**
	 * This request with a bounded wait, measured on {@link System#nanoTime()}: ZooKeeper
	 * calls and the wait for predecessors together take at most {@code wait}.
	 * @param wait the longest wait; {@link Duration#ZERO} tries once
	 * @return the new request
	 * @throws IllegalArgumentException if {@code wait} is {@code null} or negative
	 */
	public LockRequest waitAtMost(Duration wait) {
		if (wait == null || wait.isNegative()) {
			throw new IllegalArgumentException("Wait " + ((wait != null) ? Durations.format(wait) : "null")
					+ " for lock path '" + this.path + "' is invalid: use a duration of zero or more "
					+ "(Duration.ZERO tries once), or waitWithoutLimit()");
		}
		return new LockRequest(this.path, this.mode, wait, this.lockName, this.owner, this.interruptible,
				this.maxHold, this.onHoldExceeded);
	}

	/**
	 * This request waiting as long as it takes (the default).
	 * @return the new request
	 */
	public LockRequest waitWithoutLimit() {
		return new LockRequest(this.path, this.mode, null, this.lockName, this.owner, this.interruptible,
				this.maxHold, this.onHoldExceeded);
	}

	/**
	 * This request under a declared lock name, which labels metrics and events instead of the
	 * lock path, so that locks on many keys ({@code "orders/1"}, {@code "orders/2"}, …) share
	 * one label ({@code "orders"}).
	 * @param lockName a label of bounded cardinality; {@code null} or blank uses the first
	 * segment of the lock path
	 * @return the new request
	 */
	public LockRequest named(@Nullable String lockName) {
		String name = (lockName != null && !lockName.isBlank()) ? lockName : null;
		return new LockRequest(this.path, this.mode, this.maxWait, name, this.owner, this.interruptible,
				this.maxHold, this.onHoldExceeded);
	}

	/**
	 * This request with another owner.
	 * @param owner {@link HoldOwner#THREAD} for a hold the current thread releases itself
	 * (reentrant), {@link HoldOwner#CALL} for a handle released anywhere (never reentrant)
	 * @return the new request
	 * @throws IllegalArgumentException if {@code owner} is {@code null}
	 */
	public LockRequest ownedBy(HoldOwner owner) {
		if (owner == null) {
			throw new IllegalArgumentException("Hold owner must not be null for lock path '" + this.path
					+ "'; use HoldOwner.THREAD or HoldOwner.CALL");
		}
		return new LockRequest(this.path, this.mode, this.maxWait, this.lockName, owner, this.interruptible,
				this.maxHold, this.onHoldExceeded);
	}

	/**
	 * This request waiting through interrupts, as {@link java.util.concurrent.locks.Lock#lock()}
	 * does: an interrupt neither ends the wait nor costs the waiter its place in the queue; the
	 * thread's interrupt flag is set again when the acquire returns.
	 * @return the new request
	 */
	public LockRequest uninterruptibly() {
		return new LockRequest(this.path, this.mode, this.maxWait, this.lockName, this.owner, false,
				this.maxHold, this.onHoldExceeded);
	}

	/**
	 * This request with a bound on how long the hold should last, counted from the grant of the
	 * handle it returns (for a reentrant acquire, from that acquire): a hold that outlives it is
	 * reported, not ended. zklock never releases a lock because of this bound, since its holder
	 * may still be using what the lock guards (a lock that frees itself under running work is
	 * what ZooKeeper's ephemeral nodes exist to avoid). When the bound passes and the handle is
	 * not released yet, the {@link LockListener}s hear
	 * {@link LockListener#onHoldExceeded(LockTarget, long, Duration, Duration, boolean)} (with
	 * {@code released} {@code false}), and a WARN on the logger
	 * {@code io.zklock.lock.internal.HoldBreach} names the lock and the holder thread, with that
	 * thread's stack where the hold is thread-owned ({@link HoldOwner#THREAD}, not detached);
	 * for a call-owned hold it names the thread that acquired it. Once per handle, on the
	 * engine's {@code zklock-hold-bound} thread. The hold then ends as it would have: at its
	 * release, or with the session. Like ShedLock's {@code lockAtMostFor}, as a bound to watch
	 * rather than a lease; {@code @DistributedLock}'s {@code holdAtMost} can also interrupt or
	 * cancel the call.
	 * @param maxHold the longest expected hold, positive
	 * @return the new request
	 * @throws IllegalArgumentException if {@code maxHold} is {@code null}, zero or negative
	 */
	public LockRequest holdAtMost(Duration maxHold) {
		if (maxHold == null || maxHold.isNegative() || maxHold.isZero()) {
			throw new IllegalArgumentException("Hold bound " + ((maxHold != null) ? Durations.format(maxHold) : "null")
					+ " for lock path '" + this.path + "' is invalid: use a positive duration such as "
					+ "Duration.ofMinutes(5), or leave the hold unbounded");
		}
		return new LockRequest(this.path, this.mode, this.maxWait, this.lockName, this.owner, this.interruptible,
				maxHold, this.onHoldExceeded);
	}

	/**
	 * This request with a reaction of its holder's to a hold that outlives
	 * {@link #holdAtMost(Duration)}: when the bound passes and the handle is not released yet, the
	 * engine calls {@code reaction} in place of its WARN (on its {@code zklock-hold-bound} thread,
	 * once per handle), then tells the {@link LockListener}s unless the reaction says the hold no
	 * longer guards running work. The lock stays held whatever the reaction does. Without a
	 * {@code holdAtMost} the reaction is never called. {@code @DistributedLock}'s
	 * {@code onHoldExceeded} policies are such reactions.
	 * @param reaction what the holder does; {@code null} for the engine's WARN
	 * @return the new request
	 */
	public LockRequest onHoldExceeded(@Nullable HoldExceededReaction reaction) {
		return new LockRequest(this.path, this.mode, this.maxWait, this.lockName, this.owner, this.interruptible,
				this.maxHold, reaction);
	}

	/**
	 * The lock path as given.
	 * @return the lock path, such as {@code "orders/42"}
	 */
	public String path() {
		return this.path;
	}

	/**
	 * The lock mode.
	 * @return the mode
	 */
	public LockMode mode() {
		return this.mode;
	}

	/**
	 * The longest wait.
	 * @return the wait, or empty to wait without limit
	 */
	public Optional<Duration> maxWait() {
		return Optional.ofNullable(this.maxWait);
	}

	/**
	 * The declared lock name.
	 * @return the name, or empty to use the first segment of the lock path
	 */
	public Optional<String> lockName() {
		return Optional.ofNullable(this.lockName);
	}

	/**
	 * Who owns the hold.
	 * @return {@link HoldOwner#CALL} unless set
	 */
	public HoldOwner owner() {
		return this.owner;
	}

	/**
	 * Whether an interrupt ends the wait.
	 * @return {@code true} unless {@link #uninterruptibly()} was used
	 */
	public boolean isInterruptible() {
		return this.interruptible;
	}

	/**
	 * The bound on the hold set with {@link #holdAtMost(Duration)}.
	 * @return the bound, or empty for none
	 */
	public Optional<Duration> maxHold() {
		return Optional.ofNullable(this.maxHold);
	}

	/**
	 * The holder's reaction to a hold past its bound, set with
	 * {@link #onHoldExceeded(HoldExceededReaction)}.
	 * @return the reaction, or empty for the engine's WARN
	 */
	public Optional<HoldExceededReaction> holdExceededReaction() {
		return Optional.ofNullable(this.onHoldExceeded);
	}

	@Override
	public String toString() {
		return "LockRequest[" + this.mode + " '" + this.path + "', "
				+ ((this.maxWait != null) ? "wait " + Durations.format(this.maxWait) : "no wait limit") + ", "
				+ this.owner + "-owned" + (this.interruptible ? "" : ", uninterruptible")
				+ ((this.maxHold != null) ? ", hold at most " + Durations.format(this.maxHold) : "") + "]";
	}

}
