package io.zklock.lock.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockMode;
import io.zklock.internal.LockPaths;
import io.zklock.lock.LockState;
import io.zklock.lock.event.LockTarget;
import org.jspecify.annotations.Nullable;

/**
 * Who waits for what among the acquires of one engine, and the cycles they close: thread T waits
 * for a lock path that a hold of thread U covers, U waits for one a hold of T covers (the JVM's
 * {@code ThreadMXBean.findDeadlockedThreads} does the same for monitors).
 *
 * <p>
 * A cycle is <em>certain</em>, none of its threads can go on, only when every wait on it has no
 * limit and every hold on it is a live thread-owned hold: {@link LockState#HELD}, owned by its
 * thread (only that thread releases it, and that thread waits). Anything else on the cycle lets a
 * thread go on, so the cycle is only <em>likely</em>: a wait with a limit gives up when it runs out
 * (and its thread may then release what it holds: the classic back-off); a call-owned hold may be
 * released by another thread (an asynchronous callback, say); a hold in doubt may turn out lost,
 * and its lock node go with its session. A hold that is released or lost (its lock node gone, or
 * going with its session) blocks nobody and is no edge at all. Holds of other processes are not
 * seen; they never make a cycle of this process any less certain.
 *
 * <p>
 * Thread-safe: waiters enter and leave under this object's monitor, so of two threads that close
 * a cycle together the second sees it; a thread registers its holds before it enters a wait, so
 * the thread that enters last sees every hold and every other wait of the cycle. A cycle can
 * become certain only when a wait enters (a bounded wait that ran out is followed by an unbounded
 * one, say), and that entering acquire is then the one that fails; the one exception is a hold in
 * doubt confirmed while the cycle stands, which is then never failed (its waits were warned of
 * when they entered).
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
	 * @param unbounded whether the wait has no limit
	 * @param site where it waits from, if recorded
	 * @return its wait, with the cycle it closes, if any; leave it with {@link #leave(Wait)}
	 */
	synchronized Wait enter(LockTarget target, HoldOwner owner, boolean unbounded, @Nullable StackTraceElement site) {
		Thread self = Thread.currentThread();
		Wait wait = new Wait(self, target, owner, unbounded, site);
		this.waits.put(self, wait);
		wait.cycle = cycleFrom(wait);
		return wait;
	}

	/** The wait ended (granted, given up or failed). */
	synchronized void leave(Wait wait) {
		this.waits.remove(wait.thread, wait);
	}

	/**
	 * The cycle an acquire of {@code target} by the current thread would close now, for the
	 * message of a wait that ran out: the thread need not be waiting any more.
	 * @param unbounded whether to judge the acquire's own wait as one without a limit
	 */
	synchronized @Nullable Cycle cycleOf(LockTarget target, HoldOwner owner, boolean unbounded) {
		return cycleFrom(new Wait(Thread.currentThread(), target, owner, unbounded, null));
	}

	/**
	 * Depth-first over the holds that block each wait, back to the first waiter's thread: first
	 * along edges that only their holder thread can end (every hold live and thread-owned, every
	 * wait after the first without a limit), then along any edge, so that a certain cycle is found
	 * where one exists, even beside a likely one through the same waits. Each pass visits each
	 * waiting thread once.
	 */
	private @Nullable Cycle cycleFrom(Wait first) {
		if (this.holds.holdsOf(first.target.lockPath()).isEmpty()) {
			// nothing of this process holds the lock path: no edge leaves this wait
			return null;
		}
		List<Edge> path = new ArrayList<>();
		if (search(first, first.thread, path, new HashSet<>(), true)) {
			return new Cycle(List.copyOf(path));
		}
		path.clear();
		return search(first, first.thread, path, new HashSet<>(), false) ? new Cycle(List.copyOf(path)) : null;
	}

	private boolean search(Wait wait, Thread origin, List<Edge> path, Set<Thread> visited, boolean certainOnly) {
		for (LockHold hold : this.holds.holdsOf(wait.target.lockPath())) {
			if (!excludes(wait.target.mode(), hold.mode()) || !blocks(hold.state())) {
				continue;
			}
			Edge edge = new Edge(wait, hold);
			if (certainOnly && !(path.isEmpty() ? edge.holdCertain() : edge.certain())) {
				continue;
			}
			Thread holder = hold.holderThread();
			path.add(edge);
			if (holder == origin) {
				return true;
			}
			Wait next = this.waits.get(holder);
			if (next != null && visited.add(holder) && search(next, origin, path, visited, certainOnly)) {
				return true;
			}
			path.remove(path.size() - 1);
		}
		return false;
	}

	/**
	 * Whether a hold in {@code state} keeps a waiter out: a released hold does not, nor does a
	 * lost one, whose lock node is gone or goes with its session.
	 */
	private static boolean blocks(LockState state) {
		return state == LockState.HELD || state == LockState.IN_DOUBT;
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

		/** Whether the wait has no limit: only then can it be part of a certain cycle. */
		final boolean unbounded;

		final @Nullable StackTraceElement site;

		@Nullable Cycle cycle;

		Wait(Thread thread, LockTarget target, HoldOwner owner, boolean unbounded, @Nullable StackTraceElement site) {
			this.thread = thread;
			this.target = target;
			this.owner = owner;
			this.unbounded = unbounded;
			this.site = site;
		}

	}

	/** A wait blocked by a hold. */
	record Edge(Wait waiter, LockHold hold) {

		/**
		 * Whether the waiter can only go on once the holder thread releases the hold: the wait has
		 * no limit, and the hold is live and thread-owned.
		 */
		boolean certain() {
			return this.waiter.unbounded && holdCertain();
		}

		/** Whether only its (waiting) holder thread can release the hold, and it is live. */
		boolean holdCertain() {
			return this.hold.currentOwner() == HoldOwner.THREAD && this.hold.state() == LockState.HELD;
		}

	}

	/**
	 * A cycle of waits, from the waiter that closed it back to its own thread.
	 * @param edges each wait and the hold that blocks it
	 */
	record Cycle(List<Edge> edges) {

		/**
		 * Whether no thread on it can go on: every wait on it has no limit and every hold on it is
		 * a live thread-owned hold.
		 */
		boolean certain() {
			return this.edges.stream().allMatch(Edge::certain);
		}

		/**
		 * Whether no thread on it can go on but by the limit of the first wait (the one that closed
		 * it, or asked about it): every other wait has no limit, every hold is live and thread-owned.
		 */
		boolean certainButForFirstWait() {
			return this.edges.get(0).holdCertain()
					&& this.edges.subList(1, this.edges.size()).stream().allMatch(Edge::certain);
		}

		/**
		 * Whether the first waiter waits only for a call-owned hold of its own thread: the thread
		 * asked again for a lock it holds through a handle that it, or another thread, may release.
		 */
		boolean ownCallOwnedHold() {
			return this.edges.size() == 1 && this.edges.get(0).hold().currentOwner() == HoldOwner.CALL;
		}

		/**
		 * What lets a thread on a likely cycle go on, in words that follow "unless", such as
		 * "another thread releases the call-owned handle on the cycle"; empty for a certain one. The
		 * first wait's own limit is not named: its waiter knows it.
		 */
		String wayOut() {
			List<String> ways = new ArrayList<>();
			for (Edge edge : this.edges.subList(1, this.edges.size())) {
				if (!edge.waiter().unbounded) {
					ways.add("thread '" + edge.waiter().thread.getName() + "', which waits with a limit, gives up and "
							+ "releases what it holds");
				}
			}
			if (this.edges.stream().anyMatch((edge) -> edge.hold().currentOwner() == HoldOwner.CALL)) {
				ways.add("another thread releases the call-owned handle on the cycle");
			}
			if (this.edges.stream().anyMatch((edge) -> edge.hold().state() == LockState.IN_DOUBT)) {
				ways.add("a hold in doubt on the cycle turns out lost");
			}
			return String.join(" or ", ways);
		}

		/**
		 * Whether a likely cycle is likely only for another thread's wait with a limit: the
		 * back-off of a timed acquire, which ends on its own when that wait runs out.
		 */
		boolean onlyAnotherBoundedWaitLetsGo() {
			return this.edges.stream().allMatch(Edge::holdCertain)
					&& this.edges.subList(1, this.edges.size()).stream().anyMatch((edge) -> !edge.waiter().unbounded);
		}

		/**
		 * The cycle in words: each thread, the lock it waits for (and whether with a limit, after the
		 * first), who holds that lock and where it was acquired.
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
					.append(" lock on '").append(LockPaths.escape(wait.target.lockPath())).append("'");
				if (!wait.unbounded && edge != this.edges.get(0)) {
					text.append(" with a limit");
				}
				if (wait.site != null) {
					text.append(" (at ").append(wait.site).append(")");
				}
				text.append(", which ").append(hold.describeHolder());
			}
			return text.toString();
		}

	}

}
