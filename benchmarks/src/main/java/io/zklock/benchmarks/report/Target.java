package io.zklock.benchmarks.report;

import java.util.Locale;

/**
 * A target: one figure of zklock's against a peer's from the same run (Curator's for the ZooKeeper
 * cycles and handoffs, Redisson's, etcd's or Hazelcast's for the peers' scenarios, the protocol
 * floor's for the uncontended cycle), and whether it was met. The report lists them per server, so
 * the ratios and request counts that the gate keeps stand in one table.
 *
 * @param figure what is compared, such as {@code "uncontended cycles/s (unbounded wait)"}
 * @param zklock zklock's figure
 * @param peer the peer's name, such as {@code "Curator"}
 * @param peerValue the peer's figure in the same run
 * @param decimals the decimals to print the figures with
 * @param goal the target in words, such as {@code "≥ 1.40× Curator"}
 * @param met whether the target was met
 */
public record Target(String figure, double zklock, String peer, double peerValue, int decimals, String goal,
		boolean met) {

	private static final String CURATOR = "Curator";

	private static final String REPORTED = "reported";

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
		return ratioAtLeast(figure, zklock, CURATOR, curator, decimals, minimum);
	}

	/**
	 * A target on the ratio zklock/peer: at least {@code minimum}.
	 * @param figure what is compared
	 * @param zklock zklock's figure
	 * @param peer the peer's name
	 * @param peerValue the peer's figure
	 * @param decimals the decimals of the figures
	 * @param minimum the lowest ratio that meets the target
	 * @return the target
	 */
	public static Target ratioAtLeast(String figure, double zklock, String peer, double peerValue, int decimals,
			double minimum) {
		return new Target(figure, zklock, peer, peerValue, decimals,
				String.format(Locale.ROOT, "≥ %.2f× %s", minimum, peer), zklock / peerValue >= minimum);
	}

	/**
	 * A figure the issue asks to be reported against a peer's, with no bound to meet.
	 * @param figure what is compared
	 * @param zklock zklock's figure
	 * @param peer the peer's name
	 * @param peerValue the peer's figure
	 * @param decimals the decimals of the figures
	 * @return the figure, always "met"
	 */
	public static Target reported(String figure, double zklock, String peer, double peerValue, int decimals) {
		return new Target(figure, zklock, peer, peerValue, decimals, REPORTED, true);
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
		return new Target(figure, zklock, CURATOR, curator, decimals,
				String.format(Locale.ROOT, "≤ %.2f× Curator", maximum), zklock / curator <= maximum);
	}

	/**
	 * A target on the ratio zklock/peer: at most {@code maximum}.
	 * @param figure what is compared
	 * @param zklock zklock's figure
	 * @param peer the peer's name
	 * @param peerValue the peer's figure
	 * @param decimals the decimals of the figures
	 * @param maximum the highest ratio that meets the target
	 * @return the target
	 */
	public static Target ratioAtMost(String figure, double zklock, String peer, double peerValue, int decimals,
			double maximum) {
		return new Target(figure, zklock, peer, peerValue, decimals,
				String.format(Locale.ROOT, "≤ %.2f× %s", maximum, peer), zklock / peerValue <= maximum);
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
		return new Target(figure, zklock, CURATOR, curator, decimals,
				String.format(Locale.ROOT, "zklock ≤ %." + decimals + "f", maximum), rounded <= maximum);
	}

	/**
	 * The target as a Markdown table row: figure, zklock, peer, peer's figure, ratio, target, met.
	 * @return the row, without a line end
	 */
	public String toMarkdownRow() {
		return "| " + this.figure + " | " + Comparison.format(this.zklock, this.decimals) + " | " + this.peer + " | "
				+ Comparison.format(this.peerValue, this.decimals) + " | " + Comparison.ratio(this.zklock, this.peerValue)
				+ " | " + this.goal + " | " + (REPORTED.equals(this.goal) ? "—" : this.met ? "yes" : "**no**") + " |";
	}

}
