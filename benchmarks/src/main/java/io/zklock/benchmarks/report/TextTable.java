package io.zklock.benchmarks.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A table of facts, one row per library, as text (the pause test's): no ratios, and zklock is
 * never reported behind in it (the analysis reads it). Not thread-safe.
 */
public final class TextTable implements ReportTable {

	private final String title;

	private final List<String> columns;

	private final List<List<String>> rows = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	/**
	 * Creates an empty table.
	 * @param title the title
	 * @param columns the column headings, the first the rows' names
	 */
	public TextTable(String title, List<String> columns) {
		this.title = title;
		this.columns = List.copyOf(columns);
	}

	/**
	 * Adds a row.
	 * @param cells one per column
	 * @return this table
	 */
	public TextTable row(List<String> cells) {
		if (cells.size() != this.columns.size()) {
			throw new IllegalArgumentException("A row of " + this.columns.size() + " cells expected: " + cells);
		}
		this.rows.add(List.copyOf(cells));
		return this;
	}

	/**
	 * Adds a note printed under the table.
	 * @param note one sentence or more
	 * @return this table
	 */
	public TextTable note(String note) {
		this.notes.add(note);
		return this;
	}

	/**
	 * The rows.
	 * @return the cells of each row
	 */
	public List<List<String>> rows() {
		return List.copyOf(this.rows);
	}

	/** Whether every cell of a column is a figure (right-aligned) rather than text. */
	private boolean numeric(int column) {
		for (List<String> row : this.rows) {
			if (!row.get(column).matches("[-+]?[0-9][0-9,]*(\\.[0-9]+)?|n/a")) {
				return false;
			}
		}
		return true;
	}

	@Override
	public String title() {
		return this.title;
	}

	@Override
	public String toMarkdown() {
		StringBuilder out = new StringBuilder("| ").append(String.join(" | ", this.columns)).append(" |\n|---");
		for (int column = 1; column < this.columns.size(); column++) {
			out.append(numeric(column) ? "|---:" : "|---");
		}
		out.append("|\n");
		this.rows.forEach((row) -> out.append("| ").append(String.join(" | ", row)).append(" |\n"));
		this.notes.forEach((note) -> out.append('\n').append(note).append('\n'));
		return out.toString();
	}

}
