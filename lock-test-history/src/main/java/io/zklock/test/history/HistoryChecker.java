package io.zklock.test.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zklock.lock.LockMode;
import io.zklock.test.history.LockEvent.Type;

/**
 * Checks a lock history against the fenced-mutex model, the one Hazelcast's Jepsen suite
 * checks its {@code FencedLock} with (a Knossos model), extended to read/write locks:
 * <ul>
 * <li>fencing tokens are unique: no two grants of a lock path share one;</li>
 * <li>tokens follow real time: a grant whose acquire began after another grant of the same
 * lock path had returned carries the larger token (so it holds under pauses too); a grant
 * whose acquire start was not recorded is not judged here;</li>
 * <li>a reentrant acquire returns the token of the hold it re-enters;</li>
 * <li>no fenced resource accepts a write whose token is below one it accepted before;</li>
 * <li>no two holds of a lock path overlap unless both are {@link LockMode#READ}: reported as
 * {@link Overlap}s, since holds may overlap when a holder is paused past its session (it
 * only believes it holds the lock; fencing is what keeps the resource safe then).</li>
 * </ul>
 * A hold lasts from its {@link Type#GRANTED} event to the first of: its holder's
 * {@link Type#RELEASING}, {@link Type#LOST} or {@link Type#DIED} event, matched by holder,
 * lock path and fencing token; {@link CheckResult#overlapsUntilDoubt()} also ends it at
 * {@link Type#IN_DOUBT}.
 *
 * <p>
 * Thread-safe (stateless).
 */
public final class HistoryChecker {

	private static final int MAX_MESSAGES = 20;

	private static final long UNKNOWN = Long.MIN_VALUE;

	private HistoryChecker() {
	}

	/**
	 * Checks every lock path of a history.
	 * @param history the events, in any order (they are sorted by stamp)
	 * @return the figures, overlaps and violations of all lock paths together
	 */
	public static CheckResult check(List<LockEvent> history) {
		Set<String> lockPaths = new LinkedHashSet<>();
		for (LockEvent event : history) {
			if (event.type() != Type.DIED) {
				lockPaths.add(event.lockPath());
			}
		}
		CheckResult total = null;
		for (String lockPath : lockPaths) {
			CheckResult one = check(history, lockPath);
			total = (total != null) ? sum(total, one) : one;
		}
		return (total != null) ? total : new CheckResult(origin(history), 0, 0, 0, 0, 0, List.of(), List.of(), List.of());
	}

	/**
	 * Checks one lock path of a history.
	 * @param history the events, in any order (they are sorted by stamp)
	 * @param lockPath the lock path, such as {@code "orders/42"}
	 * @return the figures, overlaps and violations of that lock path
	 */
	public static CheckResult check(List<LockEvent> history, String lockPath) {
		List<LockEvent> events = eventsOf(history, lockPath);
		List<String> violations = new ArrayList<>();
		List<Acquire> acquires = pairAcquires(events);
		List<Acquire> grants = acquires.stream().filter((a) -> !a.reentrant()).toList();
		checkUnique(grants, violations);
		checkRealTimeOrder(grants, violations);
		checkReentrantTokens(events, violations);
		checkWrites(events, violations);
		List<HeldInterval> intervals = HeldIntervals.of(events, grants.stream().map(Acquire::event).toList());
		int failures = count(events, Type.FAILED);
		Set<String> lost = new HashSet<>();
		for (LockEvent e : events) {
			if (e.type() == Type.IN_DOUBT || e.type() == Type.LOST) {
				lost.add(e.holder() + "/" + e.fencingToken());
			}
		}
		int lostOnRelease = (int) events.stream()
			.filter((e) -> e.type() == Type.RELEASED && e.detail().equals("LOST"))
			.count();
		if (violations.size() > MAX_MESSAGES) {
			int more = violations.size() - MAX_MESSAGES;
			violations = new ArrayList<>(violations.subList(0, MAX_MESSAGES));
			violations.add("… and " + more + " more");
		}
		return new CheckResult(origin(history), grants.size(), acquires.size() - grants.size(), failures, lost.size(),
				lostOnRelease, HeldIntervals.overlaps(intervals, false), HeldIntervals.overlaps(intervals, true),
				violations);
	}

	/**
	 * The holds of one lock path.
	 * @param history the events, in any order
	 * @param lockPath the lock path
	 * @return one interval per grant, in grant order
	 */
	public static List<HeldInterval> heldIntervals(List<LockEvent> history, String lockPath) {
		List<LockEvent> events = eventsOf(history, lockPath);
		return HeldIntervals.of(events,
				pairAcquires(events).stream().filter((a) -> !a.reentrant()).map(Acquire::event).toList());
	}

	private static List<LockEvent> eventsOf(List<LockEvent> history, String lockPath) {
		return history.stream()
			.filter((e) -> e.lockPath().equals(lockPath) || e.type() == Type.DIED)
			.sorted(Comparator.comparingLong(LockEvent::nanos))
			.toList();
	}

	/** Completed acquires: each grant matched with the acquire start before it on the same holder's thread. */
	private static List<Acquire> pairAcquires(List<LockEvent> events) {
		Map<String, LockEvent> pending = new HashMap<>();
		List<Acquire> acquires = new ArrayList<>();
		for (LockEvent e : events) {
			String worker = e.holder() + "/" + e.thread();
			switch (e.type()) {
				case ACQUIRING -> pending.put(worker, e);
				case GRANTED, REENTERED -> {
					LockEvent start = pending.remove(worker);
					acquires.add(new Acquire(e, (start != null) ? start.nanos() : UNKNOWN, e.type() == Type.REENTERED));
				}
				case FAILED -> pending.remove(worker);
				default -> {
				}
			}
		}
		return acquires;
	}

	private static void checkUnique(List<Acquire> grants, List<String> violations) {
		Map<Long, Acquire> byToken = new HashMap<>();
		for (Acquire grant : grants) {
			Acquire earlier = byToken.putIfAbsent(grant.token(), grant);
			if (earlier != null) {
				violations.add("Fencing token " + grant.token() + " of '" + grant.event.lockPath() + "' granted twice: to "
						+ earlier.who() + " and to " + grant.who());
			}
		}
	}

	/**
	 * A grant must carry a larger token than every grant that had returned before its acquire
	 * began.
	 */
	private static void checkRealTimeOrder(List<Acquire> grants, List<String> violations) {
		List<Acquire> byReturn = new ArrayList<>(grants);
		byReturn.sort(Comparator.comparingLong(Acquire::returned));
		List<Acquire> byStart = new ArrayList<>(grants.stream().filter((a) -> a.invoked() != UNKNOWN).toList());
		byStart.sort(Comparator.comparingLong(Acquire::invoked));
		int next = 0;
		Acquire largest = null;
		for (Acquire grant : byStart) {
			while (next < byReturn.size() && byReturn.get(next).returned() < grant.invoked()) {
				Acquire done = byReturn.get(next++);
				if (largest == null || done.token() > largest.token()) {
					largest = done;
				}
			}
			if (largest != null && grant.token() <= largest.token()) {
				violations.add("Token order on '" + grant.event.lockPath() + "': " + grant.who() + " got token "
						+ grant.token() + " although " + largest.who() + " had got token " + largest.token()
						+ " before that acquire began");
			}
		}
	}

	private static void checkReentrantTokens(List<LockEvent> events, List<String> violations) {
		Map<String, Long> heldToken = new HashMap<>();
		for (LockEvent e : events) {
			String worker = e.holder() + "/" + e.thread();
			if (e.type() == Type.GRANTED) {
				heldToken.put(worker, e.fencingToken());
			}
			else if (e.type() == Type.REENTERED) {
				Long outer = heldToken.get(worker);
				if (outer == null || outer != e.fencingToken()) {
					violations.add("Reentrant acquire of '" + e.lockPath() + "' by " + worker + " returned token "
							+ e.fencingToken() + " but the hold it re-entered has token " + outer);
				}
			}
			else if (e.type() == Type.RELEASING) {
				heldToken.entrySet()
					.removeIf((held) -> held.getValue() == e.fencingToken()
							&& held.getKey().startsWith(e.holder() + "/"));
			}
		}
	}

	/** A fenced resource must never accept a token below one it accepted before. */
	private static void checkWrites(List<LockEvent> events, List<String> violations) {
		LockEvent newest = null;
		for (LockEvent e : events) {
			if (e.type() != Type.WRITE_ACCEPTED) {
				continue;
			}
			if (newest != null && e.fencingToken() < newest.fencingToken()) {
				violations.add("Stale write accepted on '" + e.lockPath() + "': token " + e.fencingToken() + " of "
						+ e.holder() + "/" + e.thread() + " after token " + newest.fencingToken() + " of "
						+ newest.holder() + "/" + newest.thread());
			}
			else {
				newest = e;
			}
		}
	}

	private static int count(List<LockEvent> events, Type type) {
		return (int) events.stream().filter((e) -> e.type() == type).count();
	}

	private static long origin(List<LockEvent> history) {
		return history.stream().mapToLong(LockEvent::nanos).min().orElse(0);
	}

	private static CheckResult sum(CheckResult a, CheckResult b) {
		return new CheckResult(Math.min(a.origin(), b.origin()), a.grants() + b.grants(),
				a.reentrantGrants() + b.reentrantGrants(), a.acquireFailures() + b.acquireFailures(),
				a.lossReports() + b.lossReports(), a.lostOnRelease() + b.lostOnRelease(),
				concat(a.overlaps(), b.overlaps()), concat(a.overlapsUntilDoubt(), b.overlapsUntilDoubt()),
				concat(a.violations(), b.violations()));
	}

	private static <T> List<T> concat(List<T> a, List<T> b) {
		List<T> all = new ArrayList<>(a);
		all.addAll(b);
		return all;
	}

	/** A completed acquire; {@code invoked} is {@link #UNKNOWN} if its start was not recorded. */
	private record Acquire(LockEvent event, long invoked, boolean reentrant) {

		long token() {
			return this.event.fencingToken();
		}

		long returned() {
			return this.event.nanos();
		}

		String who() {
			return this.event.holder() + "/" + this.event.thread();
		}

	}

}
