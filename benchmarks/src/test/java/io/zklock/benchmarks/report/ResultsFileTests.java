package io.zklock.benchmarks.report;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsFileTests {

	@Test
	void shouldCreateFileWithTitleAndMarkers() {
		String content = ResultsFile.merge(null, "# Title", "tables");

		assertThat(content).isEqualTo("# Title\n\n" + ResultsFile.BEGIN + "\ntables\n" + ResultsFile.END + "\n");
	}

	@Test
	void shouldReplaceOnlyTheGeneratedBlock() {
		String existing = "# Title\n\nintro\n\n" + ResultsFile.BEGIN + "\nold tables\n" + ResultsFile.END
				+ "\n\n## Analysis\n\nhand-written\n";

		String content = ResultsFile.merge(existing, "# Title", "new tables");

		assertThat(content).isEqualTo("# Title\n\nintro\n\n" + ResultsFile.BEGIN + "\nnew tables\n" + ResultsFile.END
				+ "\n\n## Analysis\n\nhand-written\n");
	}

	@Test
	void shouldPutTheBlockFirstInAFileWithoutMarkers() {
		String content = ResultsFile.merge("## Analysis\n", "# Title", "tables");

		assertThat(content).startsWith(ResultsFile.BEGIN).endsWith("## Analysis\n");
	}

	@Test
	void shouldWriteTheFile(@TempDir Path directory) throws Exception {
		Path file = directory.resolve("sub").resolve("RESULTS.md");

		ResultsFile.write(file, "# Title", "first");
		ResultsFile.write(file, "# Title", "second");

		assertThat(Files.readString(file)).contains("second").doesNotContain("first");
	}

}
