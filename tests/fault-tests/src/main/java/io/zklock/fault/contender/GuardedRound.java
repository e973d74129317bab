package io.zklock.fault.contender;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockRequest;
import io.zklock.lock.ReleaseResult;

/**
 * The steps of one guarded section, each recorded in the history: acquire the lock, read the
 * register's counter with the fencing token, work, write the counter plus one with the same
 * token, release. The write is sent whatever the lock's state: a client cannot know it still
 * holds the lock at the moment the write lands, so only the register's fencing check keeps the
 * counter safe (Kleppmann, 2016).
 *
 * <p>
 * Every event carries the round's worker name (such as {@code w0}), whichever thread records
 * it: in the asynchronous call shapes the read, the write and the release run on other threads
 * than the acquire (see {@link CallShape}), and the release event of a call-owned hold names
 * the thread that released ({@code on=<thread>}).
 */
final class GuardedRound {

	private final ILockByCurator lock;

	private final RegisterClient register;

	private final EventSink events;

	private final String thread;

	private final HoldOwner owner;

	/**
	 * @param thread the worker's name in the history
	 * @param owner {@link HoldOwner#THREAD} for a hold the acquiring thread re-enters and
	 * releases, {@link HoldOwner#CALL} for one released on another thread
	 */
	GuardedRound(ILockByCurator lock, RegisterClient register, EventSink events, String thread, HoldOwner owner) {
		this.lock = lock;
		this.register = register;
		this.events = events;
		this.thread = thread;
		this.owner = owner;
	}

	/** The same round reading and writing through another register connection (one per thread). */
	GuardedRound on(RegisterClient register) {
		return new GuardedRound(this.lock, register, this.events, this.thread, this.owner);
	}

	/**
	 * Acquires the lock for this round's owner: a thread-owned acquire by a thread that holds
	 * the lock re-enters its hold (same node, same token); a call-owned one never does.
	 * @return the handle, or empty if the wait ran out or the acquire failed (recorded)
	 */
	Optional<LockHandle> acquire(String lockPath, Duration wait, boolean reentrant) {
		this.events.event(this.thread, "invoke", "acquire", lockPath, 0, reentrant ? "reentrant" : null);
		Optional<LockHandle> handle;
		try {
			handle = this.lock
				.tryAcquire(LockRequest.of(lockPath, LockMode.EXCLUSIVE).waitAtMost(wait).ownedBy(this.owner));
		}
		catch (RuntimeException ex) {
			this.events.event(this.thread, "fail", "acquire", lockPath, 0, describe(ex));
			System.err.println("[" + this.thread + "] acquire of '" + lockPath + "' failed: " + ex);
			return Optional.empty();
		}
		if (handle.isEmpty()) {
			this.events.event(this.thread, "fail", "acquire", lockPath, 0, "timeout");
			return handle;
		}
		LockHandle held = handle.get();
		this.events.event(this.thread, "ok", "acquire", lockPath, held.fencingToken(), reentrant ? "reentrant" : null);
		if (!reentrant) {
			held.onLost((lost) -> this.events.event(this.thread, "lost", "lock", lockPath, lost.fencingToken(),
					lost.state().name()));
		}
		return handle;
	}

	/**
	 * Acquires the lock like an application that must have it: a failed or timed-out attempt
	 * (recorded) is retried after a short back-off until {@code wait} has passed.
	 * @return the handle, or empty if the wait ran out or the thread was interrupted
	 */
	Optional<LockHandle> acquirePersistently(String lockPath, Duration wait) {
		long deadline = System.nanoTime() + wait.toNanos();
		while (true) {
			long left = deadline - System.nanoTime();
			Optional<LockHandle> handle = acquire(lockPath, Duration.ofNanos(Math.max(0, left)), false);
			if (handle.isPresent() || left <= 0 || Thread.currentThread().isInterrupted()) {
				return handle;
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return handle;
			}
		}
	}

	/** Reads the counter with the handle's token; {@code -1} if the register failed (recorded). */
	long read(LockHandle handle) {
		try {
			long value = this.register.read(handle.lockPath(), handle.fencingToken());
			this.events.event(this.thread, "ok", "read", handle.lockPath(), handle.fencingToken(), Long.toString(value));
			return value;
		}
		catch (RuntimeException ex) {
			this.events.event(this.thread, "fail", "read", handle.lockPath(), handle.fencingToken(),
					ex.getClass().getSimpleName());
			return -1;
		}
	}

	/** Writes {@code value} with the handle's token; {@code true} if the register accepted it. */
	boolean write(LockHandle handle, long value) {
		this.events.event(this.thread, "invoke", "write", handle.lockPath(), handle.fencingToken(),
				Long.toString(value));
		boolean accepted;
		try {
			accepted = this.register.write(handle.lockPath(), handle.fencingToken(), value);
		}
		catch (RuntimeException ex) {
			this.events.event(this.thread, "fail", "write", handle.lockPath(), handle.fencingToken(),
					ex.getClass().getSimpleName());
			return false;
		}
		this.events.event(this.thread, accepted ? "ok" : "fail", "write", handle.lockPath(), handle.fencingToken(),
				accepted ? "accepted" : "rejected");
		return accepted;
	}

	/** Releases the handle of a first acquire. */
	ReleaseResult release(LockHandle handle) {
		return release(handle, false);
	}

	/** Releases the handles of first acquires, the last taken first. */
	void releaseAll(List<LockHandle> handles) {
		for (int i = handles.size() - 1; i >= 0; i--) {
			release(handles.get(i));
		}
	}

	/**
	 * Releases the handle; a reentrant one is marked so, as it leaves the lock held; a
	 * call-owned one names the releasing thread.
	 */
	ReleaseResult release(LockHandle handle, boolean reentrant) {
		String detail = reentrant ? "reentrant"
				: (this.owner == HoldOwner.CALL) ? "on=" + Thread.currentThread().getName() : null;
		this.events.event(this.thread, "invoke", "release", handle.lockPath(), handle.fencingToken(), detail);
		ReleaseResult result = handle.release();
		this.events.event(this.thread, "ok", "release", handle.lockPath(), handle.fencingToken(), result.name());
		return result;
	}

	/** The exception and its root cause, as one word for the history. */
	private static String describe(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String text = ex.getClass().getSimpleName() + ((root != ex) ? ":" + root.getClass().getSimpleName() : "");
		return text.replaceAll("[^A-Za-z0-9_.:$-]", "");
	}

}
