package io.zklock.benchmarks.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A server the benchmark starts as a child process (a ZooKeeper member, {@code redis-server},
 * {@code etcd}, a Hazelcast member), its output in a log file. The child is destroyed when
 * this JVM exits, also on a crash of the driver; closing it stops it and deletes its directory.
 */
public final class ChildProcess implements AutoCloseable {

	private final String name;

	private final Process process;

	private final Path directory;

	private final Path log;

	private final Thread shutdownHook;

	private ChildProcess(String name, Process process, Path directory, Path log) {
		this.name = name;
		this.process = process;
		this.directory = directory;
		this.log = log;
		this.shutdownHook = new Thread(process::destroyForcibly, name + "-reaper");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts a child process, its standard output and error in {@code directory/name.log}.
	 * @param name what it is, for messages and the log's name, such as {@code "redis-server"}
	 * @param command the command line
	 * @param directory its own directory (data, configuration, log), deleted on {@link #close()}
	 * @return the started process
	 * @throws IOException if it cannot be started
	 */
	public static ChildProcess start(String name, List<String> command, Path directory) throws IOException {
		Path log = directory.resolve(name.replaceAll("[^A-Za-z0-9.-]", "-") + ".log");
		Process process = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		return new ChildProcess(name, process, directory, log);
	}

	/**
	 * The command line of a child JVM on this JVM's class path and {@code java}.
	 * @param maxHeap such as {@code "512m"}
	 * @param systemProperties {@code -D} properties, in order
	 * @param mainClass the main class
	 * @param args the program's arguments
	 * @return the command line
	 */
	public static List<String> javaCommand(String maxHeap, Map<String, String> systemProperties, String mainClass,
			List<String> args) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xms" + maxHeap);
		command.add("-Xmx" + maxHeap);
		systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
		command.add("-cp");
		// absolute: the child runs in its own directory
		command.add(java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
			.map((entry) -> Path.of(entry).toAbsolutePath().toString())
			.collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator)));
		command.add(mainClass);
		command.addAll(args);
		return command;
	}

	/**
	 * Waits until {@code ready} says so, failing with the log if the process exits first or the
	 * time runs out (the process is then stopped).
	 * @param ready polled every 100 ms; an exception counts as not ready yet
	 * @param seconds the longest wait
	 * @throws IOException if the process exits or does not become ready in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void awaitReady(Callable<Boolean> ready, long seconds) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		while (System.nanoTime() - deadline < 0) {
			if (!this.process.isAlive()) {
				String output = logText();
				close();
				throw new IOException("The " + this.name + " process exited with code " + this.process.exitValue()
						+ " before it served; its log:\n" + output);
			}
			try {
				if (Boolean.TRUE.equals(ready.call())) {
					return;
				}
			}
			catch (Exception ex) {
				// not ready yet
			}
			Thread.sleep(100);
		}
		String output = logText();
		close();
		throw new IOException("The " + this.name + " process did not serve within " + seconds + " s; its log:\n" + output);
	}

	/**
	 * What the process wrote so far.
	 * @return its log, or a note if it cannot be read
	 */
	public String logText() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	/**
	 * The process id.
	 * @return the pid
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * The process.
	 * @return the running process
	 */
	public Process process() {
		return this.process;
	}

	/**
	 * The process's own directory.
	 * @return the directory, deleted on close
	 */
	public Path directory() {
		return this.directory;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down: the hook runs anyway
		}
		deleteRecursively(this.directory);
	}

	/**
	 * Deletes a directory and everything in it.
	 * @param directory the directory
	 */
	public static void deleteRecursively(Path directory) {
		if (!Files.exists(directory)) {
			return;
		}
		try (var paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not delete " + directory, ex);
		}
	}

	/**
	 * A free TCP port on the loopback address.
	 * @return the port
	 * @throws IOException if none can be had
	 */
	public static int freeLoopbackPort() throws IOException {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
