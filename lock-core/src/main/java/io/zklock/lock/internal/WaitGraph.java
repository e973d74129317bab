package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockTarget;
import org.jspecify.annotations.Nullable;

/**
 * Who waits for what among the acquires of one engine, and the cycles they close: thread T waits
 * for a lock path that a hold of thread U covers, U waits for one a hold of T covers (the JVM's
 * {@code ThreadMXBean.findDeadlockedThreads} does the same for monitors). An edge through a
 * thread-owned hold is certain: only its thread releases it, and that thread waits. An edge through
 * a call-owned hold is not: another thread may release it (an asynchronous callback, say), so a
 * cycle with one is a likely deadlock, not a certain one. Holds of other processes are not seen;
 * they never make a cycle of this process any less certain. Thread-safe: waiters enter and leave
 * under this object's monitor, so of two threads that close a cycle together the second sees it.
 */
final class WaitGraph {

	/** The waits under way, by thread; guarded by this object's monitor. */
	private final Map<Thread, Wait> waits = new HashMap<>();

	private final HoldRegistry holds;

	WaitGraph(HoldRegistry holds) {
		this.holds = holds;
	}

	/**
	 * The current thread starts waiting for {@code target}.
	 * @param site where it waits from, if recorded
	 * @return its wait, with the cycle it closes, if any; leave it with {@link #leave(Wait)}
	 */
	synchronized Wait enter(LockTarget target, HoldOwner owner, @Nullable StackTraceElement site) {
		Thread self = Thread.currentThread();
		Wait wait = new Wait(self, target, owner, site);
		this.waits.put(self, wait);
		wait.cycle = cycleFrom(wait);
		return wait;
	}

	/** The wait ended (granted, given up or failed). */
	synchronized void leave(Wait wait) {
		this.waits.remove(wait.thread, wait);
	}

	/**
	 * The cycle an acquire of {@code target} by the current thread would close now, for a time-out
	 * message: the thread need not be waiting any more.
	 */
	synchronized @Nullable Cycle cycleOf(LockTarget target, HoldOwner owner) {
		return cycleFrom(new Wait(Thread.currentThread(), target, owner, null));
	}

	/** Depth-first over the holds that block each wait, back to the first waiter's thread. */
	private @Nullable Cycle cycleFrom(Wait first) {
		List<Edge> path = new ArrayList<>();
		Set<Thread> visited = new HashSet<>();
		return search(first, first.thread, path, visited) ? new Cycle(List.copyOf(path)) : null;
	}

	private boolean search(Wait wait, Thread origin, List<Edge> path, Set<Thread> visited) {
		for (LockHold hold : this.holds.holdsOf(wait.target.lockPath())) {
			if (!excludes(wait.target.mode(), hold.mode()) || hold.state() == io.zklock.lock.LockState.RELEASED) {
				continue;
			}
			Thread holder = hold.holderThread();
			path.add(new Edge(wait, hold));
			if (holder == origin) {
				return true;
			}
			Wait next = this.waits.get(holder);
			if (next != null && visited.add(holder) && search(next, origin, path, visited)) {
				return true;
			}
			path.remove(path.size() - 1);
		}
		return false;
	}

	/** Whether a wait in {@code waiting} mode is blocked by a hold in {@code held} mode. */
	private static boolean excludes(LockMode waiting, LockMode held) {
		return waiting.excludesReaders() || held.excludesReaders();
	}

	/** One thread's wait; its cycle is fixed when it enters. */
	static final class Wait {

		final Thread thread;

		final LockTarget target;

		final HoldOwner owner;

		final @Nullable StackTraceElement site;

		@Nullable Cycle cycle;

		Wait(Thread thread, LockTarget target, HoldOwner owner, @Nullable StackTraceElement site) {
			this.thread = thread;
			this.target = target;
			this.owner = owner;
			this.site = site;
		}

	}

	/** A wait blocked by a hold. */
	record Edge(Wait waiter, LockHold hold) {

		/** Whether only the waiting thread's own wait keeps the hold: it is thread-owned. */
		boolean certain() {
			return this.hold.currentOwner() == HoldOwner.THREAD;
		}

	}

	/**
	 * A cycle of waits, from the waiter that closed it back to its own thread.
	 * @param edges each wait and the hold that blocks it
	 */
	record Cycle(List<Edge> edges) {

		/** Whether every hold on the cycle is thread-owned: then no thread on it can go on. */
		boolean certain() {
			return this.edges.stream().allMatch(Edge::certain);
		}

		/**
		 * The cycle in words: each thread, the lock it waits for, who holds that lock and where it
		 * was acquired.
		 */
		String describe() {
			StringBuilder text = new StringBuilder();
			for (Edge edge : this.edges) {
				if (!text.isEmpty()) {
					text.append("; ");
				}
				Wait wait = edge.waiter();
				LockHold hold = edge.hold();
				text.append("thread '").append(wait.thread.getName()).append("' waits for the ").append(wait.target.mode())
					.append(" lock on '").append(io.zklock.lock.LockPaths.escape(wait.target.lockPath())).append("'");
				if (wait.site != null) {
					text.append(" (at ").append(wait.site).append(")");
				}
				text.append(", which ").append(hold.describeHolder());
			}
			return text.toString();
		}

	}

}
