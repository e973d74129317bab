package io.zklock.benchmarks.gate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gate check passes only within its bounds, and says so in its row.
 */
class GateCheckTests {

	@Test
	void shouldPassOnlyWithinTheBounds() {
		assertThat(new GateCheck("requests", 3.004, 2.995, 3.005, 2, "").passed()).isTrue();
		assertThat(new GateCheck("requests", 4.0, 2.995, 3.005, 2, "").passed()).isFalse();
		assertThat(new GateCheck("requests", Double.NaN, 2.995, 3.005, 2, "").passed()).isFalse();
		assertThat(new GateCheck("ratio", 0.49, 0.5, Double.MAX_VALUE, 2, "").passed()).isFalse();
	}

	@Test
	void shouldRenderTheBoundsAndTheVerdict() {
		assertThat(new GateCheck("nodes left", 0, 0, 0, 0, "a node left").toMarkdownRow())
			.isEqualTo("| nodes left | 0 | 0 … 0 | pass | a node left |");
		assertThat(new GateCheck("ratio", 0.4, 0.5, Double.MAX_VALUE, 2, "slower").toMarkdownRow())
			.isEqualTo("| ratio | 0.40 | ≥ 0.50 | **FAIL** | slower |");
	}

}
