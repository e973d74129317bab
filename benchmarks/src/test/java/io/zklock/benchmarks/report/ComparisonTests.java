package io.zklock.benchmarks.report;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ComparisonTests {

	@Test
	void shouldPrintSubjectPeersAndRatios() {
		Comparison table = new Comparison("1. Test", "zklock", List.of("Curator", "Spring Integration"));
		table.row(Metric.throughput("ops/s"), Map.of("zklock", 1500.0, "Curator", 1000.0, "Spring Integration", 3000.0));

		String markdown = table.toMarkdown();

		assertThat(markdown).contains("| metric | zklock | Curator | zklock/Curator | Spring Integration | "
				+ "zklock/Spring Integration |");
		assertThat(markdown).contains("| ops/s | 1,500 | 1,000 | 1.50 | 3,000 | 0.50 |");
	}

	@Test
	void shouldPrintMissingFiguresAsNotAvailable() {
		Comparison table = new Comparison("5. Test", "zklock", List.of("Curator", "Spring Integration"));
		table.row(Metric.cost("requests", 2), Map.of("zklock", 3.0, "Curator", 3.0));

		assertThat(table.toMarkdown()).contains("| requests | 3.00 | 3.00 | 1.00 | n/a | n/a |");
	}

	@Test
	void shouldReportSubjectBehindWhenLowerThroughputOrHigherCost() {
		Comparison table = new Comparison("3. Test", "zklock", List.of("Curator"));
		table.row(Metric.throughput("handoffs/s"), Map.of("zklock", 800.0, "Curator", 1000.0));
		table.row(Metric.cost("requests/handoff", 2), Map.of("zklock", 6.0, "Curator", 5.0));
		table.row(Metric.cost("p99 µs", 1), Map.of("zklock", 90.0, "Curator", 100.0));

		List<String> behind = table.subjectBehind();

		assertThat(behind).hasSize(2);
		assertThat(behind.get(0)).contains("handoffs/s").contains("20% lower");
		assertThat(behind.get(1)).contains("requests/handoff").contains("20% higher");
	}

	@Test
	void shouldNotReportDifferencesWithinNoiseOrFacts() {
		Comparison table = new Comparison("6. Test", "zklock", List.of("Curator"));
		table.row(Metric.throughput("locks/s"), Map.of("zklock", 990.0, "Curator", 1000.0));
		table.row(Metric.fact("znodes right after", 0), Map.of("zklock", 500.0, "Curator", 10.0));

		assertThat(table.subjectBehind()).isEmpty();
	}

	@Test
	void shouldNeverReportSubjectBehindAReference() {
		Comparison table = new Comparison("2. Test", "annotated", List.of("plain", "programmatic")).reference("plain");
		table.row(Metric.cost("µs/call", 1), Map.of("annotated", 300.0, "plain", 0.03, "programmatic", 200.0));

		assertThat(table.subjectBehind()).singleElement().asString().contains("programmatic").doesNotContain("vs plain");
		assertThat(table.toMarkdown()).contains("| µs/call | 300.0 | 0.0 | 10,000 | 200.0 | 1.50 |");
	}

	@Test
	void shouldFormatLargeRatiosWithoutDecimals() {
		assertThat(Comparison.ratio(1234.0, 0.5)).isEqualTo("2,468");
		assertThat(Comparison.ratio(0.0, 0.0)).isEqualTo("1.00");
		assertThat(Comparison.ratio(null, 1.0)).isEqualTo("n/a");
	}

}
