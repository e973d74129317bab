package io.zklock.benchmarks.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The targets of the issues: which side of the line a figure is on, and the table row.
 */
class TargetTests {

	@Test
	void shouldMeetARatioTargetOnlyAtOrAboveTheMinimum() {
		assertThat(Target.ratioAtLeast("cycles/s", 4200, 3000, 0, 1.4).met()).isTrue();
		assertThat(Target.ratioAtLeast("cycles/s", 4199, 3000, 0, 1.4).met()).isFalse();
		assertThat(Target.ratioAtMost("p50 µs", 140, 200, 1, 0.7).met()).isTrue();
		assertThat(Target.ratioAtMost("p50 µs", 141, 200, 1, 0.7).met()).isFalse();
	}

	@Test
	void shouldCompareAnAbsoluteTargetAtThePrintedPrecision() {
		assertThat(Target.atMost("requests/cycle", 3.004, 3.0, 2, 3.0).met()).isTrue();
		assertThat(Target.atMost("requests/cycle", 3.006, 3.0, 2, 3.0).met()).isFalse();
	}

	@Test
	void shouldNameThePeerOfATargetAgainstAnotherLibrary() {
		Target target = Target.ratioAtLeast("handoffs/s", 800, "Redisson RLock", 400, 0, 2.0);

		assertThat(target.met()).isTrue();
		assertThat(target.toMarkdownRow())
			.isEqualTo("| handoffs/s | 800 | Redisson RLock | 400 | 2.00 | ≥ 2.00× Redisson RLock | yes |");
	}

	@Test
	void shouldBoundARatioToAnotherColumnFromAbove() {
		Target target = Target.ratioAtMost("µs/cycle", 460, "protocol floor", 400, 0, 1.15);

		assertThat(target.met()).isTrue();
		assertThat(Target.ratioAtMost("µs/cycle", 461, "protocol floor", 400, 0, 1.15).met()).isFalse();
		assertThat(target.toMarkdownRow())
			.isEqualTo("| µs/cycle | 460 | protocol floor | 400 | 1.15 | ≤ 1.15× protocol floor | yes |");
	}

	@Test
	void shouldRenderARowWithTheRatioAndTheVerdict() {
		assertThat(Target.ratioAtLeast("handoffs/s", 4600, 3600, 0, 1.25).toMarkdownRow())
			.isEqualTo("| handoffs/s | 4,600 | Curator | 3,600 | 1.28 | ≥ 1.25× Curator | yes |");
		assertThat(Target.atMost("watch events/release", 1.2, 1.0, 3, 1.0).toMarkdownRow())
			.endsWith("| zklock ≤ 1.000 | **no** |");
	}

}
