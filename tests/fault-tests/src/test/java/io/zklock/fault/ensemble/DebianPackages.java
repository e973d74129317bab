package io.zklock.fault.ensemble;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Asks {@code dpkg-query} (found on the {@code PATH}) which files an installed Debian package
 * holds, so that tests find a packaged program where this machine's package put it, never at a
 * path written into the test.
 */
final class DebianPackages {

	private DebianPackages() {
	}

	/**
	 * The files the given packages installed.
	 * @param packages Debian package names, all of which must be installed
	 * @return the paths of their files and folders that exist, in {@code dpkg-query -L} order
	 * @throws AssertionError if {@code dpkg-query} is missing or one of the packages is not
	 * installed, naming the packages and the {@code apt-get} command that installs them
	 */
	static List<Path> files(String... packages) {
		String install = "apt-get update && apt-get install -y " + String.join(" ", packages);
		List<String> command = new ArrayList<>(List.of("dpkg-query", "--listfiles"));
		command.addAll(List.of(packages));
		Process process;
		try {
			process = new ProcessBuilder(command).redirectErrorStream(true).start();
		}
		catch (IOException ex) {
			throw new AssertionError("Cannot ask dpkg-query which files the Debian package(s) " + String.join(", ",
					packages) + " installed (" + ex.getMessage() + "): this test runs Debian's packaged ZooKeeper; "
					+ "run it on Debian with '" + install + "'", ex);
		}
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new AssertionError("dpkg-query --listfiles " + String.join(" ", packages) + " did not answer in 30 s");
			}
			if (process.exitValue() != 0) {
				throw new AssertionError("Debian package(s) " + String.join(", ", packages) + " not installed ("
						+ output.strip() + "): install with '" + install + "' (./run-tests.sh does so where it can)");
			}
			return output.lines().map(String::strip).filter((line) -> line.startsWith("/")).map(Path::of)
				.filter(Files::exists).toList();
		}
		catch (IOException ex) {
			throw new AssertionError("Cannot read the answer of dpkg-query --listfiles " + String.join(" ", packages), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted while asking dpkg-query", ex);
		}
	}

}
