package io.zklock.fault.check;

import java.util.List;

import io.zklock.test.history.CheckResult;

/**
 * How many fencing violations of each kind the published checker reported, for a run's figures
 * (the verdict is the list itself): tokens granted twice on one lock path or on two, tokens out of
 * real-time order on one lock path or across lock paths. The checker shows at most 20 messages per
 * lock path and 20 across lock paths, and says how many more there were; once it left any out,
 * every count is a lower bound, marked {@code ≥}.
 *
 * @param sharedOnOnePath tokens granted twice on one lock path
 * @param sharedAcrossPaths tokens granted on two lock paths
 * @param orderOnOnePath grants below a grant of their own lock path that had returned first
 * @param orderAcrossPaths grants below a grant of another lock path that had returned first
 * @param capped whether some messages were left out (the counts are lower bounds)
 */
public record ViolationCounts(int sharedOnOnePath, int sharedAcrossPaths, int orderOnOnePath, int orderAcrossPaths,
		boolean capped) {

	/** Counts the violations of {@code result} by the words they start with. */
	public static ViolationCounts of(CheckResult result) {
		List<String> violations = result.violations();
		return new ViolationCounts(count(violations, "Fencing token ", " granted twice"),
				count(violations, "Fencing token ", " granted on two lock paths"), count(violations, "Token order on ", ""),
				count(violations, "Token order across lock paths", ""),
				violations.stream().anyMatch((v) -> v.startsWith("… and ")));
	}

	private static int count(List<String> violations, String start, String part) {
		return (int) violations.stream().filter((v) -> v.startsWith(start) && v.contains(part)).count();
	}

	/** The tokens shared across lock paths, such as {@code 2} or {@code ≥ 20}. */
	public String sharedAcrossPathsText() {
		return text(this.sharedAcrossPaths);
	}

	/** The token-order violations, per lock path and across, such as {@code 0 / 3}. */
	public String orderText() {
		return text(this.orderOnOnePath) + " / " + text(this.orderAcrossPaths);
	}

	private String text(int count) {
		return this.capped ? "≥ " + count : Integer.toString(count);
	}

}
