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
 * checks its {@code FencedLock} with (a Knossos model), extended to read/write locks and to
 * several lock paths:
 * <ul>
 * <li>fencing tokens are unique: no two grants share one, of one lock path or of two;</li>
 * <li>tokens follow real time: a grant whose acquire began after another grant had returned,
 * of the same lock path or of another, carries the larger token (so it holds under pauses
 * too); a grant whose acquire start was not recorded is not judged here;</li>
 * <li>a reentrant acquire returns the token of the hold it re-enters (it is no grant of its
 * own, and the two properties above leave it out);</li>
 * <li>no fenced resource accepts a write whose token is below one it accepted before;</li>
 * <li>no two holds of a lock path overlap unless both are {@link LockMode#READ}: reported as
 * {@link Overlap}s, since holds may overlap when a holder is paused past its session (it
 * only believes it holds the lock; fencing is what keeps the resource safe then).</li>
 * </ul>
 * Leadership histories (terms and the writes of leaders) are judged by {@link #checkTerms(List)}
 * against "one fenced writer per term".
 * <p>
 * The first two are what zklock promises of {@code LockHandle.fencingToken()}: a zxid, unique
 * and in real-time order across the whole ensemble, over every lock path (zklock's
 * docs/lock-protocol.md, "What a token promises"), so that a resource may keep one high-water
 * mark or one idempotency key for several locks. {@link #check(List)} judges them per lock path
 * and across lock paths; {@link #check(List, String)} per lock path only. Tokens of two
 * ensembles are unrelated: give {@link #check(List)} the history of one ensemble (or check each
 * lock path on its own).
 * <p>
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
	 * Checks every lock path of a history, each on its own, and the fencing tokens across lock
	 * paths: no token granted on two lock paths, and no grant with a token below that of a grant
	 * on another lock path that had returned before its acquire began. A violation across lock
	 * paths names both grants, with their holders, threads, lock paths and tokens.
	 * @param history the events, in any order (they are sorted by stamp)
	 * @return the figures, overlaps and violations of all lock paths together, then those
	 * across lock paths
	 */
	public static CheckResult check(List<LockEvent> history) {
		Set<String> lockPaths = new LinkedHashSet<>();
		for (LockEvent event : history) {
			if (event.type() != Type.DIED) {
				lockPaths.add(event.lockPath());
			}
		}
		CheckResult total = null;
		List<Acquire> grants = new ArrayList<>();
		for (String lockPath : lockPaths) {
			CheckResult one = check(history, lockPath);
			total = (total != null) ? sum(total, one) : one;
			pairAcquires(eventsOf(history, lockPath)).stream().filter((a) -> !a.reentrant()).forEach(grants::add);
		}
		if (total == null) {
			return new CheckResult(origin(history), 0, 0, 0, 0, 0, List.of(), List.of(), List.of());
		}
		List<String> acrossPaths = new ArrayList<>();
		checkUniqueAcrossPaths(grants, acrossPaths);
		checkRealTimeOrderAcrossPaths(grants, acrossPaths);
		return sum(total, new CheckResult(total.origin(), 0, 0, 0, 0, 0, List.of(), List.of(), capped(acrossPaths)));
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
		return new CheckResult(origin(history), grants.size(), acquires.size() - grants.size(), failures, lost.size(),
				lostOnRelease, HeldIntervals.overlaps(intervals, false), HeldIntervals.overlaps(intervals, true),
				capped(violations));
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
		List<Acquire> byReturn = byReturn(grants);
		List<Acquire> byStart = byStart(grants);
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

	/**
	 * No token may be granted on two lock paths (a session's end deletes its nodes on every lock
	 * path at one zxid, so evidence taken from it may be shared). Pairs on one lock path are
	 * {@link #checkUnique}'s.
	 */
	private static void checkUniqueAcrossPaths(List<Acquire> grants, List<String> violations) {
		Map<Long, Acquire> byToken = new HashMap<>();
		for (Acquire grant : grants) {
			Acquire earlier = byToken.putIfAbsent(grant.token(), grant);
			if (earlier != null && !earlier.lockPath().equals(grant.lockPath())) {
				violations.add("Fencing token " + grant.token() + " granted on two lock paths: to " + earlier.who()
						+ " on '" + earlier.lockPath() + "' and to " + grant.who() + " on '" + grant.lockPath() + "'");
			}
		}
	}

	/**
	 * A grant must carry a larger token than every grant of another lock path that had returned
	 * before its acquire began. Pairs on one lock path are {@link #checkRealTimeOrder}'s: for each
	 * grant, the largest token returned before it began on a lock path other than its own is the
	 * largest of all such tokens, or, when that one is of the grant's own lock path, the largest of
	 * another lock path.
	 */
	private static void checkRealTimeOrderAcrossPaths(List<Acquire> grants, List<String> violations) {
		List<Acquire> byReturn = byReturn(grants);
		List<Acquire> byStart = byStart(grants);
		int next = 0;
		Acquire largest = null;
		Acquire largestElsewhere = null;
		for (Acquire grant : byStart) {
			while (next < byReturn.size() && byReturn.get(next).returned() < grant.invoked()) {
				Acquire done = byReturn.get(next++);
				if (largest == null || done.token() > largest.token()) {
					if (largest != null && !largest.lockPath().equals(done.lockPath())) {
						largestElsewhere = largest;
					}
					largest = done;
				}
				else if (!done.lockPath().equals(largest.lockPath())
						&& (largestElsewhere == null || done.token() > largestElsewhere.token())) {
					largestElsewhere = done;
				}
			}
			Acquire other = (largest != null && largest.lockPath().equals(grant.lockPath())) ? largestElsewhere
					: largest;
			if (other != null && grant.token() <= other.token()) {
				violations.add("Token order across lock paths: " + grant.who() + " got token " + grant.token() + " on '"
						+ grant.lockPath() + "' although " + other.who() + " had got token " + other.token() + " on '"
						+ other.lockPath() + "' before that acquire began");
			}
		}
	}

	/**
	 * Checks a leadership history against "one fenced writer per term" (zklock's
	 * docs/leadership-protocol.md):
	 * <ul>
	 * <li>each term's token is its own: no two terms (a holder leading a role) share a token, of one
	 * role or of two, and no lock grant carries a term's token;</li>
	 * <li>each write a fenced store accepted with a term's token is its term's holder's (a write whose
	 * token is a lock grant's is the lock checker's, and left out here; one whose token is nobody's is
	 * a violation);</li>
	 * <li>the terms' writes do not interleave at a store: per resource, in the order the store accepted
	 * them, the tokens never go down, so no write of a term is accepted after the first accepted write
	 * of a later term.</li>
	 * </ul>
	 * Terms are {@link Type#TERM_GRANTED} events, the role as lock path (a term resumed after
	 * jeopardy is granted again with the same holder, role and token) and {@link Type#TERM_REVOKED};
	 * writes are {@link Type#WRITE_ACCEPTED} and {@link Type#WRITE_REFUSED}, the lock path naming the
	 * resource. Listeners record a grant a little after the term began, so a write may be stamped before
	 * its term's grant: the check does not hold that against it.
	 * @param history the events, in any order (they are sorted by stamp); lock events may be mixed in
	 * @return the figures and the violations
	 */
	public static TermCheckResult checkTerms(List<LockEvent> history) {
		List<LockEvent> events = history.stream().sorted(Comparator.comparingLong(LockEvent::nanos)).toList();
		List<String> violations = new ArrayList<>();
		Map<Long, TermOf> terms = new HashMap<>();
		int resumptions = 0;
		for (LockEvent e : events) {
			if (e.type() != Type.TERM_GRANTED) {
				continue;
			}
			TermOf term = new TermOf(e.holder(), e.lockPath());
			TermOf earlier = terms.putIfAbsent(e.fencingToken(), term);
			if (earlier == null) {
				continue;
			}
			if (earlier.equals(term)) {
				resumptions++;
			}
			else {
				violations.add("Term token " + e.fencingToken() + " granted to two terms: " + earlier + " and " + term);
			}
		}
		Set<Long> lockGrants = new HashSet<>();
		for (LockEvent e : events) {
			if (e.type() == Type.GRANTED && lockGrants.add(e.fencingToken()) && terms.containsKey(e.fencingToken())) {
				violations.add("Term token " + e.fencingToken() + " of " + terms.get(e.fencingToken())
						+ " also granted as a lock: to " + e.holder() + "/" + e.thread() + " on '" + e.lockPath() + "'");
			}
		}
		Map<Long, Boolean> active = new HashMap<>();
		Map<String, LockEvent> newest = new HashMap<>();
		int accepted = 0;
		int refused = 0;
		int afterRevocation = 0;
		for (LockEvent e : events) {
			long token = e.fencingToken();
			switch (e.type()) {
				case TERM_GRANTED -> active.put(token, true);
				case TERM_REVOKED -> active.put(token, false);
				case WRITE_REFUSED -> refused += terms.containsKey(token) ? 1 : 0;
				case WRITE_ACCEPTED -> {
					TermOf term = terms.get(token);
					if (term == null && lockGrants.contains(token)) {
						continue;
					}
					accepted++;
					if (term == null) {
						violations.add("Write accepted on '" + e.lockPath() + "' from " + e.holder() + " with token "
								+ token + ", the token of no term");
						continue;
					}
					if (!term.holder().equals(e.holder())) {
						violations.add("Write accepted on '" + e.lockPath() + "' from " + e.holder() + " with token "
								+ token + " of " + term);
					}
					if (Boolean.FALSE.equals(active.get(token))) {
						afterRevocation++;
					}
					LockEvent before = newest.get(e.lockPath());
					if (before != null && token < before.fencingToken()) {
						violations.add("Terms interleaved at '" + e.lockPath() + "': a write of " + term + " (token "
								+ token + ") accepted after a write of the later " + terms.get(before.fencingToken())
								+ " (token " + before.fencingToken() + ")");
					}
					else {
						newest.put(e.lockPath(), e);
					}
				}
				default -> {
				}
			}
		}
		return new TermCheckResult(terms.size(), resumptions, accepted, refused, afterRevocation, capped(violations));
	}

	/** A term's holder and role. */
	private record TermOf(String holder, String role) {

		@Override
		public String toString() {
			return this.holder + "'s term of role '" + this.role + "'";
		}

	}

	/** The grants in the order they returned. */
	private static List<Acquire> byReturn(List<Acquire> grants) {
		List<Acquire> sorted = new ArrayList<>(grants);
		sorted.sort(Comparator.comparingLong(Acquire::returned));
		return sorted;
	}

	/** The grants whose acquire start is known, in the order their acquires began. */
	private static List<Acquire> byStart(List<Acquire> grants) {
		List<Acquire> sorted = new ArrayList<>(grants.stream().filter((a) -> a.invoked() != UNKNOWN).toList());
		sorted.sort(Comparator.comparingLong(Acquire::invoked));
		return sorted;
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

	/** The first {@value #MAX_MESSAGES} messages, and how many more there were. */
	private static List<String> capped(List<String> violations) {
		if (violations.size() <= MAX_MESSAGES) {
			return violations;
		}
		List<String> shown = new ArrayList<>(violations.subList(0, MAX_MESSAGES));
		shown.add("… and " + (violations.size() - MAX_MESSAGES) + " more");
		return shown;
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

		String lockPath() {
			return this.event.lockPath();
		}

	}

}
