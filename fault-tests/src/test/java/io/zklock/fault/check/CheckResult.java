package io.zklock.fault.check;

import java.util.List;

/**
 * What the {@link HistoryChecker} found in the history of one lock path.
 *
 * @param grants first (non-reentrant) grants
 * @param reentrantGrants reentrant acquires
 * @param acquireFailures acquires that failed or timed out
 * @param lossReports lock-loss reports ({@code IN_DOUBT} or {@code LOST}) by the holders' library
 * @param lostOnRelease releases that found the lock node gone ({@code ReleaseResult.LOST}): locks
 * lost before their holder noticed
 * @param overlaps pairs of grants held at the same time, a holder counting as holding until it
 * released, its library reported the lock {@code LOST}, or it died
 * @param overlapsUntilDoubt the same, a holder counting as holding only until its library put
 * the lock in doubt
 * @param violations broken safety properties (token uniqueness and order, reentrant tokens), in
 * words
 */
public record CheckResult(int grants, int reentrantGrants, int acquireFailures, int lossReports, int lostOnRelease,
		int overlaps,
		int overlapsUntilDoubt, List<String> violations) {

	public boolean isSafe() {
		return this.violations.isEmpty();
	}

}
