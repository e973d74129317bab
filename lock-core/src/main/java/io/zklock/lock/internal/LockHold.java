package io.zklock.lock.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import io.zklock.internal.Durations;
import io.zklock.lock.event.HeldLock;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockState;
import io.zklock.lock.event.LockTarget;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lock node this client holds: a call's, or a thread's shared by that thread's reentrant
 * acquires of the same lock path. The entry count is local: re-entering costs no ZooKeeper
 * call. Thread-safe; its state changes under its own monitor, which is never held while
 * waiting.
 */
final class LockHold implements GuardedHold {

	private static final Logger logger = LoggerFactory.getLogger(LockHold.class);

	private final LockTarget target;

	private final GrantedNode node;

	private final HoldOwner owner;

	private final Thread holderThread;

	/** Where it was acquired, if the engine records it. */
	private final @Nullable StackTraceElement site;

	private final Instant acquiredAt = Instant.now();

	private final long acquiredNanos = System.nanoTime();

	private final List<Runnable> lossCallbacks = new ArrayList<>();

	/** Open handles that the holder thread owns (reentrant entries). */
	private int entries = 1;

	/** Open handles detached from the holder thread, released later from any thread. */
	private int detachedEntries;

	/**
	 * Open entries whose handles became unreachable unreleased ({@link LeakWatch}): no code can
	 * release them any more. Counted among the entries above.
	 */
	private int leakedEntries;

	private boolean released;

	private LockState state = LockState.HELD;

	/** When the hold went IN_DOUBT last, on {@link System#nanoTime()}. */
	private long inDoubtSince;

	/** Guarded writes of this hold under way ({@code GuardedTransaction.commit}). */
	private int pins;

	/** What the last release left to do until no guarded write is under way, if anything. */
	private @Nullable Runnable afterPins;

	LockHold(LockTarget target, GrantedNode node, HoldOwner owner, Thread holderThread,
			@Nullable StackTraceElement site) {
		this.target = target;
		this.node = node;
		this.owner = owner;
		this.holderThread = holderThread;
		this.site = site;
	}

	/** Where it was acquired, or {@code null} if the engine did not record it. */
	@Nullable StackTraceElement site() {
		return this.site;
	}

	LockTarget target() {
		return this.target;
	}

	String lockPath() {
		return this.target.lockPath();
	}

	LockMode mode() {
		return this.target.mode();
	}

	HoldOwner owner() {
		return this.owner;
	}

	Thread holderThread() {
		return this.holderThread;
	}

	Instant acquiredAt() {
		return this.acquiredAt;
	}

	@Override
	public long sessionId() {
		return this.node.sessionId();
	}

	@Override
	public String nodePath() {
		return this.node.nodePath();
	}

	long fencingToken() {
		return this.node.fencingToken();
	}

	/** Time since the grant, on {@link System#nanoTime()}. */
	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	synchronized HeldLock snapshot() {
		return new HeldLock(this.target.lockPath(), this.target.lockName(), this.target.mode(),
				this.node.fencingToken(), this.node.nodePath(), this.acquiredAt, currentOwner(),
				this.holderThread.getName(), this.holderThread.getId(), this.entries + this.detachedEntries, state());
	}

	/**
	 * Who owns the hold now: a thread-owned hold whose handles were all detached from the thread
	 * belongs to no thread any more.
	 */
	synchronized HoldOwner currentOwner() {
		return (this.owner == HoldOwner.THREAD && this.entries == 0) ? HoldOwner.CALL : this.owner;
	}

	/**
	 * Counts one more reentrant acquire; {@code false} if the hold was released meanwhile, or if
	 * its thread no longer owns it (every thread entry was detached or released).
	 */
	synchronized boolean enter() {
		if (this.released || this.entries == 0) {
			return false;
		}
		this.entries++;
		return true;
	}

	/**
	 * Turns one thread entry into a detached one.
	 * @return {@code true} if the thread has no entry left: it no longer owns the hold
	 */
	synchronized boolean detach() {
		if (this.released || this.entries == 0) {
			return false;
		}
		this.entries--;
		this.detachedEntries++;
		return this.entries == 0;
	}

	/**
	 * Counts one release.
	 * @param detached whether the released handle had been detached from the thread
	 * @return what the release leaves
	 */
	synchronized Exit exit(boolean detached) {
		if (this.released) {
			return Exit.STILL_HELD;
		}
		if (detached) {
			this.detachedEntries--;
		}
		else {
			this.entries--;
		}
		if (this.entries == 0 && this.detachedEntries == 0) {
			this.released = true;
			return Exit.LAST;
		}
		return (this.entries == 0 && !detached) ? Exit.LEFT_THREAD : Exit.STILL_HELD;
	}

	/**
	 * Counts one entry whose handle became unreachable unreleased.
	 * @return {@code false} if the hold was released meanwhile (nothing is counted)
	 */
	synchronized boolean leak() {
		if (this.released) {
			return false;
		}
		this.leakedEntries++;
		return true;
	}

	/**
	 * Whether no code can release this hold any more: it is not released, and the handle of every
	 * open entry became unreachable unreleased. A reentrant acquire of its thread, which opens a new
	 * entry, makes it releasable again.
	 */
	synchronized boolean isAbandoned() {
		return !this.released && this.leakedEntries > 0 && this.leakedEntries >= this.entries + this.detachedEntries;
	}

	/**
	 * Ends an abandoned hold at once, as the last release would: for the engine's close, which
	 * releases what no code can release any more.
	 * @return {@code true} if it was abandoned and is now released; {@code false} if it was not
	 * abandoned (then nothing changes)
	 */
	synchronized boolean releaseAbandoned() {
		if (!isAbandoned()) {
			return false;
		}
		this.released = true;
		return true;
	}

	/**
	 * Marks a guarded write of this hold as under way: until {@link #unpin()}, the last release
	 * leaves the node where it is ({@link #whenUnpinned(Runnable)}), so that no other holder gets it.
	 * @return {@code false} if the hold was released already (then nothing is pinned)
	 */
	synchronized boolean pin() {
		if (this.released) {
			return false;
		}
		this.pins++;
		return true;
	}

	/** A guarded write of this hold has returned; the last one runs what the release left. */
	void unpin() {
		Runnable then;
		synchronized (this) {
			this.pins--;
			if (this.pins > 0 || this.afterPins == null) {
				return;
			}
			then = this.afterPins;
			this.afterPins = null;
		}
		then.run();
	}

	/** Runs {@code then} now, or once no guarded write of this hold is under way. */
	void whenUnpinned(Runnable then) {
		synchronized (this) {
			if (this.pins > 0) {
				this.afterPins = then;
				return;
			}
		}
		then.run();
	}

	/** What one release leaves of a hold. */
	enum Exit {

		/** Other entries remain, the thread's among them if it had any. */
		STILL_HELD,

		/** The thread's last entry went; detached entries keep the node, owned by no thread. */
		LEFT_THREAD,

		/** That was the last entry: the node must go. */
		LAST

	}

	@Override
	public synchronized LockState state() {
		return this.released ? LockState.RELEASED : this.state;
	}

	@Override
	public @Nullable LockState degrade(LockState next) {
		List<Runnable> callbacks;
		LockState left;
		synchronized (this) {
			if (this.released || this.state == LockState.LOST || this.state == next) {
				return null;
			}
			left = this.state;
			callbacks = (left == LockState.HELD) ? List.copyOf(this.lossCallbacks) : List.of();
			this.state = next;
			this.inDoubtSince = System.nanoTime();
		}
		callbacks.forEach(LockHold::runQuietly);
		return left;
	}

	@Override
	public synchronized @Nullable Duration confirm(BooleanSupplier stillValid) {
		if (!this.released && this.state == LockState.IN_DOUBT && stillValid.getAsBoolean()) {
			this.state = LockState.HELD;
			return Duration.ofNanos(System.nanoTime() - this.inDoubtSince);
		}
		return null;
	}

	/**
	 * Registers a callback for the next time the lock stops being HELD.
	 * @return {@code true} if registered; {@code false} if the lock is not HELD now (the caller
	 * runs the callback itself)
	 */
	synchronized boolean addLossCallback(Runnable callback) {
		if (this.released) {
			return true;
		}
		this.lossCallbacks.add(callback);
		return this.state == LockState.HELD;
	}

	synchronized void removeLossCallback(Runnable callback) {
		this.lossCallbacks.remove(callback);
	}

	private static void runQuietly(Runnable callback) {
		try {
			callback.run();
		}
		catch (RuntimeException ex) {
			logger.warn("A lock-loss callback failed", ex);
		}
	}

	/**
	 * Who holds it, in words, for a waiter's time-out and a deadlock: {@code "thread 'worker-1'
	 * holds (thread-owned) since 12:00:03.120Z, for 3.2s, acquired at
	 * com.example.Billing.run(Billing.java:42)"}.
	 */
	String describeHolder() {
		HoldOwner current = currentOwner();
		LockState now = state();
		String who = (current == HoldOwner.THREAD) ? "thread '" + this.holderThread.getName() + "' holds (thread-owned)"
				: "a call-owned handle holds (acquired on thread '" + this.holderThread.getName()
						+ "'; any thread may release it)";
		Duration heldFor = heldFor().truncatedTo(ChronoUnit.MILLIS);
		return who + " since " + this.acquiredAt + ", for "
				+ (heldFor.isZero() ? "under 1ms" : Durations.format(heldFor))
				+ ((this.site != null) ? ", acquired at " + this.site : "")
				+ ((now != LockState.HELD) ? " (" + now + ")" : "");
	}

	@Override
	public String toString() {
		return this.target.mode() + " '" + this.target.lockPath() + "' (" + this.node.nodePath() + ", fencing token "
				+ this.node.fencingToken() + ", " + state() + ")";
	}

}
