package io.zklock.test.history;

import java.util.ArrayList;
import java.util.List;

/**
 * What the {@link HistoryChecker} found in a lock history: figures, the holds that overlapped,
 * and the broken fencing properties.
 *
 * @param origin the stamp of the history's first event, which failure messages count from
 * @param grants first (non-reentrant) grants
 * @param reentrantGrants reentrant acquires
 * @param acquireFailures acquires that failed or timed out
 * @param lossReports holds whose library put them in doubt or declared them lost
 * @param lostOnRelease releases that found the lock already lost ({@code ReleaseResult.LOST})
 * @param overlaps pairs of holds of one lock path, in modes that exclude each other, held at
 * the same time, a hold lasting until its holder began to release, its library declared it
 * lost, or its holder died
 * @param overlapsUntilDoubt the same, a hold lasting only until its lock was put in doubt
 * @param violations broken fencing properties in words: a token granted twice, a token out of
 * real-time order, a reentrant acquire with another token, a stale write accepted
 */
public record CheckResult(long origin, int grants, int reentrantGrants, int acquireFailures, int lossReports,
		int lostOnRelease, List<Overlap> overlaps, List<Overlap> overlapsUntilDoubt, List<String> violations) {

	private static final int MAX_OVERLAPS_SHOWN = 5;

	/**
	 * Creates a result; the lists are copied.
	 * @param origin the stamp of the history's first event
	 * @param grants first grants
	 * @param reentrantGrants reentrant acquires
	 * @param acquireFailures failed or timed-out acquires
	 * @param lossReports holds put in doubt or lost
	 * @param lostOnRelease releases that found the lock lost
	 * @param overlaps conflicting holds at the same time
	 * @param overlapsUntilDoubt the same, holds ending when put in doubt
	 * @param violations broken fencing properties
	 */
	public CheckResult {
		overlaps = List.copyOf(overlaps);
		overlapsUntilDoubt = List.copyOf(overlapsUntilDoubt);
		violations = List.copyOf(violations);
	}

	/**
	 * Whether the fencing properties hold and no two conflicting holds overlapped.
	 * @return {@code true} if {@link #violations()} and {@link #overlaps()} are empty
	 */
	public boolean isSafe() {
		return this.violations.isEmpty() && this.overlaps.isEmpty();
	}

	/**
	 * Asserts mutual exclusion and fencing order: for a run without paused or partitioned
	 * holders, where no two conflicting holds may overlap.
	 * @return this result
	 * @throws AssertionError listing the overlapping holds (lock path, holders, threads,
	 * tokens, times) and the broken fencing properties
	 */
	public CheckResult assertSafe() {
		List<String> problems = new ArrayList<>(this.violations);
		problems.addAll(describe(this.overlaps));
		fail(problems);
		return this;
	}

	/**
	 * Asserts that no two conflicting holds overlapped.
	 * @return this result
	 * @throws AssertionError listing the overlapping holds
	 */
	public CheckResult assertExclusive() {
		fail(describe(this.overlaps));
		return this;
	}

	/**
	 * Asserts the fencing properties only: for a run with paused or partitioned holders, where
	 * a holder may believe it holds a lock it has lost, so holds may overlap, but tokens must
	 * stay unique and ordered and no fenced resource may accept a stale write.
	 * @return this result
	 * @throws AssertionError listing the broken fencing properties
	 */
	public CheckResult assertFenced() {
		fail(this.violations);
		return this;
	}

	private List<String> describe(List<Overlap> pairs) {
		List<String> lines = new ArrayList<>();
		for (int i = 0; i < pairs.size() && i < MAX_OVERLAPS_SHOWN; i++) {
			lines.add(pairs.get(i).describe(this.origin));
		}
		if (pairs.size() > MAX_OVERLAPS_SHOWN) {
			lines.add("… and " + (pairs.size() - MAX_OVERLAPS_SHOWN) + " more overlapping pairs");
		}
		return lines;
	}

	private void fail(List<String> problems) {
		if (!problems.isEmpty()) {
			throw new AssertionError("Lock history of " + this.grants + " grants is not safe (times from its first "
					+ "event):\n  - " + String.join("\n  - ", problems));
		}
	}

}
