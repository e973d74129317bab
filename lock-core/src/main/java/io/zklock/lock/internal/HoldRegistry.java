package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.zklock.lock.event.HeldLock;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockState;
import org.jspecify.annotations.Nullable;

/**
 * The lock holds of one engine: every hold is guarded by the {@link SessionGuard}, indexed by
 * lock path (who holds a lock path in this process: {@link WaitGraph}, time-out messages), and
 * thread-owned holds are also indexed by (thread, lock path) for reentrancy. Call-owned holds
 * have no thread key, so no later acquire can join them. Thread-safe.
 */
final class HoldRegistry {

	private final SessionGuard guard;

	private final ConcurrentMap<ThreadKey, LockHold> threadOwned = new ConcurrentHashMap<>();

	/**
	 * Every hold, by lock path: who holds a lock path in this engine. Each value is an immutable
	 * list, replaced whole under the map's lock for its key: a lock path has one hold or a few, so
	 * a copy is cheaper than a set made and dropped at every grant of an uncontended lock.
	 */
	private final ConcurrentMap<String, List<LockHold>> byPath = new ConcurrentHashMap<>();

	HoldRegistry(SessionGuard guard) {
		this.guard = guard;
	}

	/** The current thread's thread-owned hold on {@code lockPath}, or {@code null}. */
	@Nullable LockHold threadHold(String lockPath) {
		if (this.threadOwned.isEmpty()) {
			return null;
		}
		return this.threadOwned.get(new ThreadKey(Thread.currentThread(), lockPath));
	}

	/**
	 * Registers a hold just granted.
	 * @return {@code false} if its session ended or was lost since the grant was decided: the
	 * hold is not registered and its node must be given up
	 * @see SessionGuard#register(GuardedHold, long)
	 */
	boolean add(LockHold hold, long decidedAt) {
		@Nullable ThreadKey key = (hold.owner() == HoldOwner.THREAD)
				? new ThreadKey(hold.holderThread(), hold.lockPath()) : null;
		if (key != null) {
			this.threadOwned.put(key, hold);
		}
		this.byPath.compute(hold.lockPath(), (path, holds) -> with(holds, hold));
		if (this.guard.register(hold, decidedAt)) {
			return true;
		}
		if (key != null) {
			this.threadOwned.remove(key, hold);
		}
		forget(hold);
		return false;
	}

	/**
	 * Stops indexing a thread-owned hold by its thread: the thread no longer owns it (its
	 * handles were detached), so no later acquire of the thread joins it.
	 */
	void leaveThread(LockHold hold) {
		this.threadOwned.remove(new ThreadKey(hold.holderThread(), hold.lockPath()), hold);
	}

	void remove(LockHold hold) {
		this.guard.unregister(hold);
		if (hold.owner() == HoldOwner.THREAD) {
			this.threadOwned.remove(new ThreadKey(hold.holderThread(), hold.lockPath()), hold);
		}
		forget(hold);
	}

	/** The holds of {@code lockPath} in this engine now (a snapshot). */
	List<LockHold> holdsOf(String lockPath) {
		List<LockHold> holds = this.byPath.get(lockPath);
		return (holds != null) ? holds : List.of();
	}

	private void forget(LockHold hold) {
		this.byPath.computeIfPresent(hold.lockPath(), (path, holds) -> without(holds, hold));
	}

	private static List<LockHold> with(@Nullable List<LockHold> holds, LockHold hold) {
		if (holds == null) {
			return List.of(hold);
		}
		if (holds.contains(hold)) {
			return holds;
		}
		List<LockHold> more = new ArrayList<>(holds.size() + 1);
		more.addAll(holds);
		more.add(hold);
		return List.copyOf(more);
	}

	private static @Nullable List<LockHold> without(List<LockHold> holds, LockHold hold) {
		if (!holds.contains(hold)) {
			return holds;
		}
		if (holds.size() == 1) {
			return null;
		}
		List<LockHold> fewer = new ArrayList<>(holds);
		fewer.remove(hold);
		return List.copyOf(fewer);
	}

	/** The holds no code can release any more ({@link LockHold#isAbandoned()}), oldest first. */
	List<LockHold> abandoned() {
		List<LockHold> abandoned = new ArrayList<>();
		for (GuardedHold hold : this.guard.holds()) {
			if (hold instanceof LockHold lock && lock.isAbandoned()) {
				abandoned.add(lock);
			}
		}
		abandoned.sort(Comparator.comparing(LockHold::acquiredAt));
		return abandoned;
	}

	/** Snapshots of the lock holds, oldest first. */
	List<HeldLock> snapshot() {
		List<HeldLock> held = new ArrayList<>();
		for (GuardedHold hold : this.guard.holds()) {
			if (hold instanceof LockHold lock && lock.state() != LockState.RELEASED) {
				held.add(lock.snapshot());
			}
		}
		held.sort(Comparator.comparing(HeldLock::acquiredAt));
		return held;
	}

	private record ThreadKey(Thread thread, String lockPath) {
	}

}
