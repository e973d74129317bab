package io.zklock.sample.demo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
	@Timeout(30)
	void shouldPrintTheUsageOfDemoShAtOnceWithoutBuilding(@TempDir Path bin) throws Exception {
		Path script = Path.of("..", "demo.sh").toAbsolutePath().normalize();
		// a PATH with the two commands the script needs to print its usage, and neither java nor Maven: no build runs
		for (String command : new String[] { "dirname", "cat" }) {
			Files.createSymbolicLink(bin.resolve(command), Path.of("/usr/bin", command));
		}
		ProcessBuilder builder = new ProcessBuilder("/bin/bash", script.toString(), "--help").redirectErrorStream(true);
		builder.environment().put("PATH", bin.toString());
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isZero();
		assertThat(output).as("demo.sh --help, no build line before it").isEqualTo(DemoOptions.USAGE);
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
