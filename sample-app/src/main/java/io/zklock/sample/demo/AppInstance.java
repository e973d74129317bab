package io.zklock.sample.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One instance of the sample application in a child JVM, its output going to a log file.
 */
final class AppInstance {

	private static final Duration STOP_GRACE = Duration.ofSeconds(10);

	private final String name;

	private final int httpPort;

	private final Path logFile;

	private final Process process;

	private AppInstance(String name, int httpPort, Path logFile, Process process) {
		this.name = name;
		this.httpPort = httpPort;
		this.logFile = logFile;
		this.process = process;
	}

	/**
	 * Starts a child JVM.
	 * @param name the instance name, also the log file's name
	 * @param httpPort the HTTP port, on 127.0.0.1
	 * @param command the full command line
	 * @param logDirectory where the log file goes
	 */
	static AppInstance start(String name, int httpPort, List<String> command, Path logDirectory) {
		Path logFile = logDirectory.resolve(name + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(logFile.toFile());
		try {
			return new AppInstance(name, httpPort, logFile, builder.start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + name + " with " + command, ex);
		}
	}

	String name() {
		return this.name;
	}

	URI baseUri() {
		return URI.create("http://127.0.0.1:" + this.httpPort);
	}

	Path logFile() {
		return this.logFile;
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Fails with the end of the log if the process has exited.
	 */
	void checkAlive() {
		if (!this.process.isAlive()) {
			throw new IllegalStateException(this.name + " exited with code " + this.process.exitValue()
					+ " (log " + this.logFile + "); its last lines:\n" + logTail(30));
		}
	}

	/**
	 * Asks the process to stop (SIGTERM, Spring's graceful shutdown), then kills it if it has
	 * not stopped within ten seconds. Does nothing if it has already exited.
	 */
	void stop() {
		if (!this.process.isAlive()) {
			return;
		}
		this.process.destroy();
		try {
			if (!this.process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The last lines of the log file.
	 */
	String logTail(int lines) {
		try {
			List<String> all = Files.readAllLines(this.logFile, StandardCharsets.UTF_8);
			return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException ex) {
			return "(cannot read " + this.logFile + ": " + ex.getMessage() + ")";
		}
	}

}
