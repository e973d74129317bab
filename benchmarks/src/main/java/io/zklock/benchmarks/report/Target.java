package io.zklock.benchmarks.report;

import java.util.Locale;

/**
 * A target of issue 14 ("the lock protocol at its physical limit"): one figure of zklock against
 * Curator's from the same run, and whether it was met. The report lists them per server, so the
 * ratios and request counts the issue asks for stand in one table.
 *
 * @param figure what is compared, such as {@code "uncontended cycles/s (unbounded wait)"}
 * @param zklock zklock's figure
 * @param curator Curator's figure in the same run
 * @param decimals the decimals to print the figures with
 * @param goal the target in words, such as {@code "≥ 1.40× Curator"}
 * @param met whether the target was met
 */
public record Target(String figure, double zklock, double curator, int decimals, String goal, boolean met) {

	/**
	 * A target on the ratio zklock/Curator: at least {@code minimum}.
	 * @param figure what is compared
	 * @param zklock zklock's figure
	 * @param curator Curator's figure
	 * @param decimals the decimals of the figures
	 * @param minimum the lowest ratio that meets the target
	 * @return the target
	 */
	public static Target ratioAtLeast(String figure, double zklock, double curator, int decimals, double minimum) {
		return new Target(figure, zklock, curator, decimals, String.format(Locale.ROOT, "≥ %.2f× Curator", minimum),
				zklock / curator >= minimum);
	}

	/**
	 * A target on the ratio zklock/Curator: at most {@code maximum}.
	 * @param figure what is compared
	 * @param zklock zklock's figure
	 * @param curator Curator's figure
	 * @param decimals the decimals of the figures
	 * @param maximum the highest ratio that meets the target
	 * @return the target
	 */
	public static Target ratioAtMost(String figure, double zklock, double curator, int decimals, double maximum) {
		return new Target(figure, zklock, curator, decimals, String.format(Locale.ROOT, "≤ %.2f× Curator", maximum),
				zklock / curator <= maximum);
	}

	/**
	 * A target on zklock's own figure: at most {@code maximum} (rounded to {@code decimals}).
	 * @param figure what is compared
	 * @param zklock zklock's figure
	 * @param curator Curator's figure, for reference
	 * @param decimals the decimals of the figures
	 * @param maximum the highest figure that meets the target
	 * @return the target
	 */
	public static Target atMost(String figure, double zklock, double curator, int decimals, double maximum) {
		double rounded = Math.round(zklock * Math.pow(10, decimals)) / Math.pow(10, decimals);
		return new Target(figure, zklock, curator, decimals,
				String.format(Locale.ROOT, "zklock ≤ %." + decimals + "f", maximum), rounded <= maximum);
	}

	/**
	 * The target as a Markdown table row: figure, zklock, Curator, ratio, target, met.
	 * @return the row, without a line end
	 */
	public String toMarkdownRow() {
		return "| " + this.figure + " | " + Comparison.format(this.zklock, this.decimals) + " | "
				+ Comparison.format(this.curator, this.decimals) + " | " + Comparison.ratio(this.zklock, this.curator)
				+ " | " + this.goal + " | " + (this.met ? "yes" : "**no**") + " |";
	}

}
