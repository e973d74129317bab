package io.zklock.benchmarks.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A table of facts: figures right-aligned, text left-aligned, one cell per column.
 */
class TextTableTests {

	@Test
	void shouldAlignFiguresRightAndTextLeft() {
		TextTable table = new TextTable("13. Pause", List.of("library", "stale writes", "told after"))
			.row(List.of("zklock", "0", "0.21"))
			.row(List.of("Redisson RLock", "1", "never, in 3 leases"))
			.note("One note.");

		assertThat(table.toMarkdown()).isEqualTo("| library | stale writes | told after |\n|---|---:|---|\n"
				+ "| zklock | 0 | 0.21 |\n| Redisson RLock | 1 | never, in 3 leases |\n\nOne note.\n");
		assertThat(table.subjectBehind()).isEmpty();
	}

	@Test
	void shouldRefuseARowOfAnotherWidth() {
		TextTable table = new TextTable("t", List.of("a", "b"));

		assertThatIllegalArgumentException().isThrownBy(() -> table.row(List.of("only one")));
	}

}
