package io.zklock.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child JVM that runs a main class of this module's tests, with the
 * tests' class path and temporary directory, small and quick to start.
 */
public final class ChildJvm {

	private ChildJvm() {
	}

	/**
	 * The command.
	 * @param mainClass the class whose {@code main} runs
	 * @param systemProperties {@code -D...} options, or other JVM options
	 * @param arguments the application's arguments
	 * @return the command line, for a {@link ProcessBuilder}
	 */
	public static List<String> command(Class<?> mainClass, List<String> systemProperties, List<String> arguments) {
		String classpath = System.getProperty("surefire.test.class.path");
		if (classpath == null || classpath.isBlank()) {
			classpath = System.getProperty("java.class.path");
		}
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(List.of("-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
				"-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir")));
		command.addAll(systemProperties);
		command.addAll(List.of("-cp", classpath, mainClass.getName()));
		command.addAll(arguments);
		return command;
	}

}
