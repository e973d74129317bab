package io.zklock.fault.harness;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Starts child JVMs (contenders, ZooKeeper servers) with small heaps and quick start-up, and
 * makes sure none outlives the test JVM: a shutdown hook kills whatever is still running
 * ({@code SIGKILL} ends stopped processes too).
 */
public final class ChildJvm {

	private static final Set<Process> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(() -> running.forEach(Process::destroyForcibly), "child-jvm-reaper"));
	}

	private ChildJvm() {
	}

	/**
	 * The classpath of this test JVM, which holds the contender program, zklock, Curator and
	 * ZooKeeper.
	 */
	public static String testClasspath() {
		String classpath = System.getProperty("surefire.test.class.path");
		if (classpath == null || classpath.isBlank()) {
			classpath = System.getProperty("java.class.path");
		}
		return classpath;
	}

	/**
	 * Starts a JVM.
	 * @param classpath its classpath
	 * @param jvmFlags flags such as {@code -Xmx64m}
	 * @param mainClass the main class
	 * @param args program arguments
	 * @param log where its standard error goes (appended); standard output stays a pipe
	 * @param stdoutToLog whether standard output goes to the log too (servers) instead of a pipe
	 * @return the process
	 */
	public static Process start(String classpath, List<String> jvmFlags, String mainClass, List<String> args, Path log,
			boolean stdoutToLog) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvmFlags);
		command.add("-cp");
		command.add(classpath);
		command.add(mainClass);
		command.addAll(args);
		ProcessBuilder builder = new ProcessBuilder(command);
		File logFile = log.toFile();
		logFile.getParentFile().mkdirs();
		builder.redirectError(ProcessBuilder.Redirect.appendTo(logFile));
		if (stdoutToLog) {
			builder.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile));
		}
		try {
			Process process = builder.start();
			running.add(process);
			process.onExit().thenRun(() -> running.remove(process));
			return process;
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException("Could not start " + mainClass + ": " + command, ex);
		}
	}

	/** Flags for a small, quickly started client JVM. */
	public static List<String> smallJvmFlags(String heap) {
		return List.of("-Xmx" + heap, "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
				"-Djava.net.preferIPv4Stack=true");
	}

}
