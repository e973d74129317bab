package io.zklock.fault.check;

import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.register.KeyStats;
import io.zklock.test.history.CheckResult;
import io.zklock.test.history.Overlap;

/**
 * The safety verdict on one lock path, the fault suite's layer over zklock's published checker
 * ({@code io.zklock.test.history}): the checker's findings plus the register's figures (stale
 * writes accepted, lost updates), and overlapping holds where the run had no pauses or
 * partitions.
 */
public final class SafetyVerdict {

	private SafetyVerdict() {
	}

	/**
	 * Lists every broken safety property.
	 * @param result the checker's findings
	 * @param stats the register's figures for the lock path
	 * @param overlapsForbidden whether the run had no paused or partitioned holder, so that no
	 * two grants may have been held at once
	 * @return the problems in words, empty if safe
	 */
	public static List<String> problems(CheckResult result, KeyStats stats, boolean overlapsForbidden) {
		return problems(result, List.of(stats), overlapsForbidden);
	}

	/**
	 * Lists every broken safety property of a run on several lock paths.
	 * @param result the checker's findings over every lock path
	 * @param keys the register's figures for each lock path
	 * @param overlapsForbidden whether the run had no paused or partitioned holder
	 * @return the problems in words, empty if safe
	 */
	public static List<String> problems(CheckResult result, List<KeyStats> keys, boolean overlapsForbidden) {
		List<String> problems = new ArrayList<>(result.violations());
		for (KeyStats stats : keys) {
			if (stats.acceptedStale() > 0) {
				problems.add(stats.acceptedStale() + " stale write(s) accepted by the register for '" + stats.key()
						+ "'");
			}
			if (stats.lostUpdate()) {
				problems.add("Lost update on '" + stats.key() + "': the counter is " + stats.value() + " after "
						+ stats.acceptedWrites() + " accepted increments");
			}
		}
		if (overlapsForbidden && !result.overlaps().isEmpty()) {
			problems.add(result.overlaps().size() + " pair(s) of grants held at the same time without any pause");
			for (Overlap overlap : result.overlaps().subList(0, Math.min(3, result.overlaps().size()))) {
				problems.add(overlap.describe(result.origin()));
			}
		}
		return problems;
	}

	/**
	 * Fails with every broken safety property.
	 * @param where names the history file to look at
	 * @throws AssertionError if any property is broken
	 */
	public static void assertSafe(CheckResult result, KeyStats stats, boolean overlapsForbidden, String where) {
		List<String> problems = problems(result, stats, overlapsForbidden);
		if (!problems.isEmpty()) {
			throw new AssertionError("Safety violated (history: " + where + "):\n  - " + String.join("\n  - ", problems));
		}
	}

}
