package io.zklock.fault.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zklock.fault.history.Event;

/**
 * Checks a history against the fenced-mutex model (the one Hazelcast's Jepsen suite checks
 * its FencedLock with):
 * <ul>
 * <li>fencing tokens are unique: no two grants share one;</li>
 * <li>tokens increase in grant order: a grant whose acquire was invoked after another grant
 * had returned carries the larger token (real-time order, so it holds under pauses too);</li>
 * <li>a reentrant acquire returns the token of the hold it re-enters;</li>
 * <li>held intervals overlap (counted, not judged here: that is a violation only in runs
 * without pauses or partitions).</li>
 * </ul>
 * Stale writes and lost updates are judged from the register's own figures; liveness by
 * {@link Liveness}.
 */
public final class HistoryChecker {

	private static final int MAX_MESSAGES = 20;

	private HistoryChecker() {
	}

	/**
	 * Checks the events of one lock path.
	 * @param history the whole history, sorted by stamp
	 * @param lockPath the lock path to check
	 * @return the figures and violations
	 */
	public static CheckResult check(List<Event> history, String lockPath) {
		List<Event> events = history.stream()
			.filter((e) -> e.lockPath().equals(lockPath) || e.type().equals("died"))
			.sorted(Comparator.comparingLong(Event::nanos))
			.toList();
		List<String> violations = new ArrayList<>();
		List<Acquire> acquires = pairAcquires(events);
		List<Acquire> grants = acquires.stream().filter((a) -> !a.reentrant()).toList();
		int reentrant = acquires.size() - grants.size();
		checkUnique(grants, violations);
		checkRealTimeOrder(grants, violations);
		checkReentrantTokens(events, violations);
		List<HeldInterval> intervals = intervals(events, grants);
		int overlaps = countOverlaps(intervals, false);
		int overlapsUntilDoubt = countOverlaps(intervals, true);
		int failures = (int) events.stream().filter((e) -> e.is("fail", "acquire")).count();
		int losses = (int) events.stream()
			.filter((e) -> e.is("lost", "lock") && !e.thread().equals("coordinator"))
			.count();
		int lostOnRelease = (int) events.stream().filter((e) -> e.is("ok", "release") && e.detail().equals("LOST")).count();
		if (violations.size() > MAX_MESSAGES) {
			int more = violations.size() - MAX_MESSAGES;
			violations = new ArrayList<>(violations.subList(0, MAX_MESSAGES));
			violations.add("… and " + more + " more");
		}
		return new CheckResult(grants.size(), reentrant, failures, losses, lostOnRelease, overlaps, overlapsUntilDoubt,
				List.copyOf(violations));
	}

	/** The held intervals of the grants on {@code lockPath}. */
	public static List<HeldInterval> heldIntervals(List<Event> history, String lockPath) {
		List<Event> events = history.stream()
			.filter((e) -> e.lockPath().equals(lockPath) || e.type().equals("died"))
			.sorted(Comparator.comparingLong(Event::nanos))
			.toList();
		return intervals(events, pairAcquires(events).stream().filter((a) -> !a.reentrant()).toList());
	}

	/** Completed acquires: each ok matched with the invoke before it on the same worker. */
	private static List<Acquire> pairAcquires(List<Event> events) {
		Map<String, Event> pendingInvoke = new HashMap<>();
		List<Acquire> acquires = new ArrayList<>();
		for (Event e : events) {
			String worker = e.process() + "/" + e.thread();
			if (e.is("invoke", "acquire")) {
				pendingInvoke.put(worker, e);
			}
			else if (e.is("ok", "acquire")) {
				Event invoke = pendingInvoke.remove(worker);
				long invoked = (invoke != null) ? invoke.nanos() : e.nanos();
				acquires.add(new Acquire(e.process(), e.thread(), e.token(), invoked, e.nanos(), e.isReentrant()));
			}
			else if (e.is("fail", "acquire")) {
				pendingInvoke.remove(worker);
			}
		}
		return acquires;
	}

	private static void checkUnique(List<Acquire> grants, List<String> violations) {
		Map<Long, Acquire> byToken = new HashMap<>();
		for (Acquire grant : grants) {
			Acquire earlier = byToken.putIfAbsent(grant.token(), grant);
			if (earlier != null) {
				violations.add("Fencing token " + grant.token() + " granted twice: to " + earlier.who() + " and to "
						+ grant.who());
			}
		}
	}

	/**
	 * A grant must carry a larger token than every grant that had returned before its acquire
	 * was invoked.
	 */
	private static void checkRealTimeOrder(List<Acquire> grants, List<String> violations) {
		List<Acquire> byReturn = new ArrayList<>(grants);
		byReturn.sort(Comparator.comparingLong(Acquire::returned));
		List<Acquire> byInvoke = new ArrayList<>(grants);
		byInvoke.sort(Comparator.comparingLong(Acquire::invoked));
		int next = 0;
		Acquire largest = null;
		for (Acquire grant : byInvoke) {
			while (next < byReturn.size() && byReturn.get(next).returned() < grant.invoked()) {
				Acquire done = byReturn.get(next++);
				if (largest == null || done.token() > largest.token()) {
					largest = done;
				}
			}
			if (largest != null && grant.token() <= largest.token()) {
				violations.add("Token order: " + grant.who() + " got token " + grant.token() + " although "
						+ largest.who() + " had got token " + largest.token() + " before the acquire began");
			}
		}
	}

	private static void checkReentrantTokens(List<Event> events, List<String> violations) {
		Map<String, Long> heldToken = new HashMap<>();
		for (Event e : events) {
			String worker = e.process() + "/" + e.thread();
			if (e.isGrant()) {
				heldToken.put(worker, e.token());
			}
			else if (e.is("ok", "acquire") && e.isReentrant()) {
				Long outer = heldToken.get(worker);
				if (outer == null || outer != e.token()) {
					violations.add("Reentrant acquire by " + worker + " returned token " + e.token()
							+ " but the hold it re-entered has token " + outer);
				}
			}
			else if (e.is("invoke", "release") && !e.isReentrant()) {
				heldToken.remove(worker);
			}
		}
	}

	private static List<HeldInterval> intervals(List<Event> events, List<Acquire> grants) {
		Map<String, List<Event>> byProcess = new HashMap<>();
		for (Event e : events) {
			byProcess.computeIfAbsent(e.process(), (p) -> new ArrayList<>()).add(e);
		}
		List<HeldInterval> intervals = new ArrayList<>();
		for (Acquire grant : grants) {
			List<Event> own = byProcess.get(grant.process());
			long end = Long.MAX_VALUE;
			long doubtEnd = Long.MAX_VALUE;
			for (int i = firstAtOrAfter(own, grant.returned()); i < own.size() && end == Long.MAX_VALUE; i++) {
				Event e = own.get(i);
				boolean released = e.is("invoke", "release") && !e.isReentrant() && e.token() == grant.token()
						&& e.thread().equals(grant.thread());
				boolean died = e.type().equals("died");
				boolean lost = e.is("lost", "lock") && e.token() == grant.token();
				if (released || died || (lost && e.detail().equals("LOST"))) {
					end = e.nanos();
				}
				if ((released || died || lost) && doubtEnd == Long.MAX_VALUE) {
					doubtEnd = e.nanos();
				}
			}
			intervals.add(new HeldInterval(grant.process(), grant.thread(), grant.token(), grant.returned(), end,
					Math.min(end, doubtEnd)));
		}
		return intervals;
	}

	private static int firstAtOrAfter(List<Event> sorted, long nanos) {
		int low = 0;
		int high = sorted.size();
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (sorted.get(mid).nanos() < nanos) {
				low = mid + 1;
			}
			else {
				high = mid;
			}
		}
		return low;
	}

	private static int countOverlaps(List<HeldInterval> intervals, boolean untilDoubt) {
		List<HeldInterval> sorted = new ArrayList<>(intervals);
		sorted.sort(Comparator.comparingLong(HeldInterval::start));
		int overlaps = 0;
		for (int i = 0; i < sorted.size(); i++) {
			for (int j = i + 1; j < sorted.size() && sorted.get(j).start() < endOf(sorted.get(i), untilDoubt); j++) {
				if (sorted.get(i).overlaps(sorted.get(j), untilDoubt)) {
					overlaps++;
				}
			}
		}
		return overlaps;
	}

	private static long endOf(HeldInterval interval, boolean untilDoubt) {
		return untilDoubt ? interval.doubtEnd() : interval.end();
	}

	/** A completed acquire. */
	private record Acquire(String process, String thread, long token, long invoked, long returned, boolean reentrant) {

		String who() {
			return this.process + "/" + this.thread;
		}

	}

}
