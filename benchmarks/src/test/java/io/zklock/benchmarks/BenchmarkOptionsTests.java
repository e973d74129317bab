package io.zklock.benchmarks;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.zklock.benchmarks.server.ServerKind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BenchmarkOptionsTests {

	private static final Path MODULE = Path.of("benchmarks");

	@Test
	void shouldRunEverythingOnBothServersAtFullScaleByDefault() {
		BenchmarkOptions options = BenchmarkOptions.parse(new String[0], MODULE);

		assertThat(options.scale().isQuick()).isFalse();
		assertThat(options.servers()).containsExactly(ServerKind.PROCESS, ServerKind.EMBEDDED, ServerKind.ENSEMBLE);
		assertThat(options.gate()).isFalse();
		assertThat(options.runs(1)).isTrue();
		assertThat(options.runs(7)).isTrue();
		assertThat(options.output()).isEqualTo(MODULE);
	}

	@Test
	void shouldWriteQuickResultsUnderTarget() {
		BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--quick", "--server=embedded" }, MODULE);

		assertThat(options.scale().isQuick()).isTrue();
		assertThat(options.servers()).isEqualTo(List.of(ServerKind.EMBEDDED));
		assertThat(options.output()).isEqualTo(MODULE.resolve("target").resolve("quick-results"));
	}

	@Test
	void shouldKeepAQuickRunOnTheEnsembleToItsOwnCodePathsUnlessScenariosAreChosen() {
		BenchmarkOptions quick = BenchmarkOptions.parse(new String[] { "--quick" }, MODULE);
		BenchmarkOptions chosen = BenchmarkOptions.parse(new String[] { "--quick", "--scenarios=10" }, MODULE);
		BenchmarkOptions full = BenchmarkOptions.parse(new String[0], MODULE);

		assertThat(quick.quickRuns(ServerKind.ENSEMBLE, 3)).isTrue();
		assertThat(quick.quickRuns(ServerKind.ENSEMBLE, 10)).isFalse();
		assertThat(quick.quickRuns(ServerKind.PROCESS, 10)).isTrue();
		assertThat(chosen.quickRuns(ServerKind.ENSEMBLE, 10)).isTrue();
		assertThat(full.quickRuns(ServerKind.ENSEMBLE, 10)).isTrue();
	}

	@Test
	void shouldRunTheGateAtTheQuickScaleIntoItsOwnFolder() {
		BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--gate", "--server=ensemble" }, MODULE);

		assertThat(options.gate()).isTrue();
		assertThat(options.scale().isQuick()).isTrue();
		assertThat(options.servers()).containsExactly(ServerKind.ENSEMBLE);
		assertThat(options.output()).isEqualTo(MODULE.resolve("target").resolve("gate-results"));
	}

	@Test
	void shouldSelectScenarios() {
		BenchmarkOptions options = BenchmarkOptions.parse(new String[] { "--scenarios=1,3" }, MODULE);

		assertThat(options.runs(1)).isTrue();
		assertThat(options.runs(3)).isTrue();
		assertThat(options.runs(2)).isFalse();
	}

	@Test
	void shouldRejectUnknownArgumentsWithTheUsage() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(new String[] { "--fast" }, MODULE))
			.withMessageContaining("Unknown argument '--fast'")
			.withMessageContaining("usage: benchmarks/run.sh");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(new String[] { "--server=docker" }, MODULE))
			.withMessageContaining("use embedded, process, ensemble, both or all");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkOptions.parse(new String[] { "--scenarios=16" }, MODULE))
			.withMessageContaining("scenarios are 1 to 15");
	}

}
