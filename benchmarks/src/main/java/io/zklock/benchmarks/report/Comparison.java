package io.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One table of a scenario: rows of metrics, one column for zklock (the subject) and one per
 * peer, with the ratio subject/peer beside every peer. All figures of one table come from the
 * same run on the same server. Not thread-safe.
 */
public final class Comparison implements ReportTable {

	/** Relative differences below this are reported as a tie rather than zklock being behind. */
	static final double NOISE = 0.03;

	private final String title;

	private final String subject;

	private final List<String> peers;

	private final List<Row> rows = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	private final List<String> references = new ArrayList<>();

	/**
	 * Creates an empty table.
	 * @param title the table's title, such as {@code "1. Uncontended acquire + release"}
	 * @param subject the subject's column, such as {@code "zklock"}
	 * @param peers the peers' columns, in order
	 */
	public Comparison(String title, String subject, List<String> peers) {
		this.title = title;
		this.subject = subject;
		this.peers = List.copyOf(peers);
	}

	/**
	 * Adds a row.
	 * @param metric the metric
	 * @param values the figures by column name; a missing column prints as n/a
	 * @return this table
	 */
	public Comparison row(Metric metric, Map<String, Double> values) {
		this.rows.add(new Row(metric, new LinkedHashMap<>(values)));
		return this;
	}

	/**
	 * Marks a peer as a reference that does not do the same job (such as a call without any
	 * lock): its ratio is printed, but the subject is never reported behind it.
	 * @param peer the peer's column
	 * @return this table
	 */
	public Comparison reference(String peer) {
		this.references.add(peer);
		return this;
	}

	/**
	 * Adds a note printed under the table.
	 * @param note one sentence or more
	 * @return this table
	 */
	public Comparison note(String note) {
		this.notes.add(note);
		return this;
	}

	/**
	 * The title.
	 * @return the title
	 */
	@Override
	public String title() {
		return this.title;
	}

	/**
	 * The rows.
	 * @return the rows in order
	 */
	public List<Row> rows() {
		return List.copyOf(this.rows);
	}

	/**
	 * Renders the table as Markdown, notes after it.
	 * @return the Markdown
	 */
	@Override
	public String toMarkdown() {
		StringBuilder out = new StringBuilder();
		out.append("| metric | ").append(this.subject);
		for (String peer : this.peers) {
			out.append(" | ").append(peer).append(" | ").append(this.subject).append('/').append(peer);
		}
		out.append(" |\n|---|---:");
		this.peers.forEach((peer) -> out.append("|---:|---:"));
		out.append("|\n");
		for (Row row : this.rows) {
			Double mine = row.values().get(this.subject);
			out.append("| ").append(row.metric().name()).append(" | ").append(format(mine, row.metric().decimals()));
			for (String peer : this.peers) {
				Double theirs = row.values().get(peer);
				out.append(" | ").append(format(theirs, row.metric().decimals())).append(" | ").append(ratio(mine, theirs));
			}
			out.append(" |\n");
		}
		for (String note : this.notes) {
			out.append("\n").append(note).append("\n");
		}
		return out.toString();
	}

	/**
	 * The rows where the subject is behind a peer (not a {@link #reference(String) reference})
	 * by more than {@value #NOISE} relatively, each as one sentence with the figures and by how
	 * much.
	 * @return the sentences
	 */
	@Override
	public List<String> subjectBehind() {
		List<String> behind = new ArrayList<>();
		for (Row row : this.rows) {
			Double mine = row.values().get(this.subject);
			if (mine == null || row.metric().better() == Better.NEITHER) {
				continue;
			}
			for (String peer : this.peers) {
				Double theirs = row.values().get(peer);
				if (theirs == null || theirs == 0 || this.references.contains(peer)) {
					continue;
				}
				double ratio = mine / theirs;
				boolean worse = (row.metric().better() == Better.HIGHER) ? ratio < 1 - NOISE : ratio > 1 + NOISE;
				if (worse) {
					String how = (row.metric().better() == Better.HIGHER)
							? String.format(Locale.ROOT, "%.0f%% lower", (1 - ratio) * 100)
							: String.format(Locale.ROOT, "%.0f%% higher", (ratio - 1) * 100);
					behind.add(this.title + ", " + row.metric().name() + ": " + this.subject + " "
							+ format(mine, row.metric().decimals()) + " vs " + peer + " "
							+ format(theirs, row.metric().decimals()) + " (" + how + ", ratio "
							+ ratio(mine, theirs) + ")");
				}
			}
		}
		return behind;
	}

	static String format(Double value, int decimals) {
		if (value == null || value.isNaN()) {
			return "n/a";
		}
		return String.format(Locale.ROOT, "%,." + decimals + "f", value);
	}

	static String ratio(Double mine, Double theirs) {
		if (mine == null || theirs == null || mine.isNaN() || theirs.isNaN()) {
			return "n/a";
		}
		if (theirs == 0) {
			return (mine == 0) ? "1.00" : "∞";
		}
		double ratio = mine / theirs;
		return String.format(Locale.ROOT, (ratio >= 100) ? "%,.0f" : "%.2f", ratio);
	}

	/**
	 * One row.
	 * @param metric the metric
	 * @param values the figures by column name
	 */
	public record Row(Metric metric, Map<String, Double> values) {
	}

}
