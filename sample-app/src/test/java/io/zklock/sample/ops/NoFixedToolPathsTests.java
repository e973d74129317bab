package io.zklock.sample.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests find the programs they drive where the machine put them: the browser and its driver
 * on the {@code PATH}, Debian's ZooKeeper through {@code dpkg-query}. No test source of any
 * module names a fixed system path in a string literal, so the tests run wherever the tools
 * are installed.
 */
class NoFixedToolPathsTests {

	private static final Pattern FIXED_PATH = Pattern.compile("\"/usr/(bin|share|lib)/[^\"]*\"");

	@Test
	void shouldFindNoSystemToolPathHardCodedInTestSources() throws IOException {
		Path root = repositoryRoot();
		List<String> found = new ArrayList<>();
		try (Stream<Path> modules = Files.list(root)) {
			for (Path testSources : modules.map((module) -> module.resolve("src/test/java"))
				.filter(Files::isDirectory)
				.toList()) {
				try (Stream<Path> files = Files.walk(testSources)) {
					for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
						Matcher matcher = FIXED_PATH.matcher(Files.readString(file, StandardCharsets.UTF_8));
						while (matcher.find()) {
							found.add(root.relativize(file) + ": " + matcher.group());
						}
					}
				}
			}
		}
		assertThat(found).as("string literals naming a fixed system path in test sources").isEmpty();
	}

	private static Path repositoryRoot() {
		for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
			if (Files.isRegularFile(folder.resolve("run-tests.sh"))) {
				return folder;
			}
		}
		throw new IllegalStateException("No run-tests.sh above " + Path.of("").toAbsolutePath());
	}

}
