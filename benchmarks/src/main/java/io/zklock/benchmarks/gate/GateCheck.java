package io.zklock.benchmarks.gate;

import java.util.Locale;

/**
 * One check of the regression gate: a figure that does not depend on the machine (a count per
 * cycle or per release, what a run left behind), or the one coarse same-run ratio, against its
 * bounds.
 *
 * @param name what is checked
 * @param measured the run's figure
 * @param low the lowest figure that passes
 * @param high the highest figure that passes
 * @param decimals the decimals to print
 * @param why what a figure out of bounds means
 */
public record GateCheck(String name, double measured, double low, double high, int decimals, String why) {

	/**
	 * Whether the figure is within its bounds.
	 * @return {@code true} if it passes
	 */
	public boolean passed() {
		return !Double.isNaN(this.measured) && this.measured >= this.low && this.measured <= this.high;
	}

	/**
	 * The bounds in words.
	 * @return such as {@code "2.995 … 3.005"} or {@code "≥ 0.50"}
	 */
	public String bounds() {
		if (this.high == Double.MAX_VALUE) {
			return "≥ " + format(this.low);
		}
		if (this.low == -Double.MAX_VALUE) {
			return "≤ " + format(this.high);
		}
		return format(this.low) + " … " + format(this.high);
	}

	/**
	 * The check as a Markdown table row: check, measured, bounds, result, what a failure means.
	 * @return the row, without a line end
	 */
	public String toMarkdownRow() {
		return "| " + this.name + " | " + format(this.measured) + " | " + bounds() + " | "
				+ (passed() ? "pass" : "**FAIL**") + " | " + this.why + " |";
	}

	private String format(double value) {
		return String.format(Locale.ROOT, "%,." + this.decimals + "f", value);
	}

}
