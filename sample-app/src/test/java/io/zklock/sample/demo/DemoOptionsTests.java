package io.zklock.sample.demo;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DemoOptions}.
 */
class DemoOptionsTests {

	@Test
	void shouldDefaultToLockedRunWithDemandWellAboveStock() {
		DemoOptions options = DemoOptions.parse();
		assertThat(options.locking()).isTrue();
		assertThat(options.requests()).isEqualTo(3000);
		assertThat(options.skus()).isEqualTo(4);
		assertThat(options.requests() * 2).isGreaterThan(2 * options.skus() * options.initialStock());
		assertThat(options.jar()).isEqualTo(Path.of("sample-app/target/zklock-sample-app.jar"));
		assertThat(options.keepRunning()).isFalse();
	}

	@Test
	void shouldParseOptions() {
		DemoOptions options = DemoOptions.parse("--no-lock", "--requests=10", "--skus=2", "--stock=5",
				"--concurrency=3", "--seed=7", "--jar=app.jar", "--keep-files", "--keep-running");
		assertThat(options).isEqualTo(new DemoOptions(false, 10, 2, 5, 3, 7, Path.of("app.jar"), true, true));
	}

	@Test
	void shouldRejectUnknownOptionsAndBadValues() {
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--nolock"))
			.withMessageStartingWith("Unknown option '--nolock'");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--requests=0"))
			.withMessage("Option --requests needs a positive whole number, was '0'");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--stock"))
			.withMessage("Option --stock needs a value: --stock=<value>");
	}

}
