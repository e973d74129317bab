package io.zklock.autoconfigure.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.zklock.autoconfigure.ChildJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs {@link CommandLineLockApp}, a command-line Spring Boot application with the embedded
 * ZooKeeper server, in a child JVM at Spring Boot's default log level: the JVM must exit by
 * itself once the application's work is done (the server's threads are daemon threads), the
 * application's context must then shut down cleanly, and ZooKeeper's server must not fill the
 * log with INFO lines nor report "ZK server died".
 */
@Tag("slow")
class EmbeddedServerJvmExitTests {

	private static final Duration EXIT_BOUND = Duration.ofSeconds(60);

	@Test
	@Timeout(120)
	void shouldLetACommandLineApplicationExitOnItsOwnAndLogQuietly(@TempDir Path directory) throws Exception {
		Path output = directory.resolve("command-line-app.log");
		Process process = new ProcessBuilder(command()).redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		try {
			if (!process.waitFor(EXIT_BOUND.toSeconds(), TimeUnit.SECONDS)) {
				fail("The command-line application did not exit within " + EXIT_BOUND.toSeconds()
						+ " s after its work (a non-daemon thread keeps its JVM alive); its output:\n" + read(output));
			}
		}
		finally {
			process.destroyForcibly();
		}
		String log = read(output);
		assertThat(process.exitValue()).as("exit code; output:\n%s", log).isZero();
		assertThat(log).contains(CommandLineLockApp.DONE)
			.contains("zklock started an in-process ZooKeeper server")
			.doesNotContain("ZK server died")
			.doesNotContain("Exception");
		List<String> serverInfoLines = log.lines()
			.filter((line) -> line.startsWith("INFO org.apache.zookeeper.server")
					|| line.startsWith("INFO org.apache.zookeeper.audit"))
			.toList();
		assertThat(serverInfoLines).as("INFO lines of ZooKeeper's server").isEmpty();
		// the context was closed by its shutdown hook after main returned: the client, then the server
		assertThat(log).contains("Session: ").contains(" closed");
	}

	private static List<String> command() {
		return ChildJvm.command(CommandLineLockApp.class, List.of(),
				List.of("--spring.main.banner-mode=off",
						"--logging.config=classpath:io/zklock/autoconfigure/embedded/command-line-app-logback.xml",
						"--zklock.zookeeper.embedded.enabled=true"));
	}

	private static String read(Path file) throws IOException {
		return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(no output)";
	}

}
