package io.zklock.benchmarks.report;

import java.util.List;

/**
 * A table of a scenario in the report: a {@link Comparison} of figures, or a {@link TextTable}
 * of facts.
 */
public interface ReportTable {

	/**
	 * The title.
	 * @return such as {@code "9. Uncontended acquire + release against the peers"}
	 */
	String title();

	/**
	 * Renders the table as Markdown, notes after it.
	 * @return the Markdown
	 */
	String toMarkdown();

	/**
	 * The rows where zklock is behind a peer, each as one sentence.
	 * @return the sentences; none for a table of facts
	 */
	default List<String> subjectBehind() {
		return List.of();
	}

}
