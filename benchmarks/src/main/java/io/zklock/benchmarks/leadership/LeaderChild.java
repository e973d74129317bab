package io.zklock.benchmarks.leadership;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.zklock.benchmarks.server.ChildProcess;

/**
 * A {@link LeaderProcessMain} child JVM seen from the driver: commands on its standard input,
 * its stamped lines kept in arrival order to be waited for and read back, and the signals that
 * freeze, resume and kill it. Thread-safe.
 */
final class LeaderChild implements AutoCloseable {

	private final String id;

	private final Process process;

	private final Writer stdin;

	private final Path log;

	private final List<Line> lines = new ArrayList<>();

	private volatile boolean paused;

	private LeaderChild(String id, Process process, Path log) {
		this.id = id;
		this.process = process;
		this.log = log;
		this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
		Thread reader = new Thread(this::read, "leader-" + id + "-out");
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts a leader process and waits until it has joined the role.
	 * @param block {@code -}, {@code onGranted:<ms>} or {@code onRevoked:<ms>}
	 */
	static LeaderChild start(LeaderLibrary library, String id, String connectString, Duration sessionTimeout,
			int storePort, String role, String block) throws IOException, InterruptedException {
		Path log = Files.createTempFile("zklock-bench-leader-" + library.id() + "-" + id + "-", ".log");
		Process process = new ProcessBuilder(ChildProcess.javaCommand("128m", Map.of(),
				LeaderProcessMain.class.getName(), List.of(library.id(), id, connectString,
						Long.toString(sessionTimeout.toMillis()), Integer.toString(storePort), role, block)))
			.redirectError(log.toFile())
			.start();
		LeaderChild child = new LeaderChild(id, process, log);
		child.await("READY", (line) -> true, Duration.ofSeconds(90));
		return child;
	}

	String id() {
		return this.id;
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	boolean isPaused() {
		return this.paused;
	}

	private void read() {
		try (BufferedReader out = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String text;
			while ((text = out.readLine()) != null) {
				String[] words = text.split(" ", 3);
				if (words.length < 2) {
					continue;
				}
				try {
					Line line = new Line(Long.parseLong(words[0]), words[1], (words.length > 2) ? words[2] : "");
					synchronized (this) {
						this.lines.add(line);
						notifyAll();
					}
				}
				catch (NumberFormatException ex) {
					// a line cut short by SIGKILL
				}
			}
		}
		catch (IOException ex) {
			// the process is gone
		}
		synchronized (this) {
			notifyAll();
		}
	}

	/** Sends a command. */
	void send(String command) {
		try {
			synchronized (this.stdin) {
				this.stdin.write(command + "\n");
				this.stdin.flush();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Leader " + this.id + " takes no commands (exited?)", ex);
		}
	}

	/**
	 * Waits for a line with this word that matches, among those that arrived from {@code fromIndex}
	 * on.
	 * @return the line
	 * @throws IllegalStateException with the process's error output if none arrives in time
	 */
	Line await(String word, Predicate<Line> matches, Duration timeout) throws InterruptedException {
		return awaitFrom(0, word, matches, timeout);
	}

	/** Like {@link #await}, among the lines from index {@code fromIndex} on. */
	synchronized Line awaitFrom(int fromIndex, String word, Predicate<Line> matches, Duration timeout)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			for (int i = fromIndex; i < this.lines.size(); i++) {
				Line line = this.lines.get(i);
				if (line.word().equals(word) && matches.test(line)) {
					return line;
				}
			}
			long left = deadline - System.nanoTime();
			if (left <= 0 || !this.process.isAlive() && !this.paused) {
				throw new IllegalStateException("Leader " + this.id + " printed no " + word + " within "
						+ timeout.toMillis() + " ms; its error output:\n" + errorOutput());
			}
			TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
		}
	}

	/** How many lines arrived so far: the index the next one gets. */
	synchronized int mark() {
		return this.lines.size();
	}

	/** The lines that arrived so far. */
	synchronized List<Line> lines() {
		return List.copyOf(this.lines);
	}

	/** Asks whether it may write now (its library's check) and with which token. */
	Status status() throws InterruptedException {
		int mark = mark();
		send("status");
		String[] words = awaitFrom(mark, "STATUS", (line) -> true, Duration.ofSeconds(30)).args().split(" ");
		return new Status(Boolean.parseBoolean(words[0]), words[1].equals("-") ? null : Long.valueOf(words[1]));
	}

	/**
	 * Leaves the role gracefully.
	 * @return when the leave began ({@link System#nanoTime()} in the child)
	 */
	long leave() throws InterruptedException {
		int mark = mark();
		send("leave");
		long began = awaitFrom(mark, "LEAVING", (line) -> true, Duration.ofSeconds(30)).nanos();
		awaitFrom(mark, "LEFT", (line) -> true, Duration.ofSeconds(60));
		return began;
	}

	/** Joins the role again (at the back). */
	void join() throws InterruptedException {
		int mark = mark();
		send("join");
		awaitFrom(mark, "JOINED", (line) -> true, Duration.ofSeconds(30));
	}

	/** Freezes the JVM ({@code SIGSTOP}). */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
		this.paused = true;
	}

	/** Lets it run on ({@code SIGCONT}). */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
		this.paused = false;
	}

	/** Crashes it ({@code SIGKILL}) and waits until it is gone. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(20, TimeUnit.SECONDS);
		this.paused = false;
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IOException("kill -" + signal + " " + this.process.pid() + " failed");
		}
	}

	private String errorOutput() {
		try {
			String text = Files.readString(this.log);
			return (text.length() > 4000) ? text.substring(text.length() - 4000) : text;
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	@Override
	public void close() {
		try {
			if (this.paused) {
				resume();
			}
			this.process.destroyForcibly();
			this.process.waitFor(20, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			this.process.destroyForcibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			try {
				Files.deleteIfExists(this.log);
			}
			catch (IOException ex) {
				// a temporary file
			}
		}
	}

	/**
	 * One stamped line of a leader process.
	 * @param nanos its stamp ({@link System#nanoTime()} in the child)
	 * @param word its first word, such as {@code GRANTED}
	 * @param args the rest
	 */
	record Line(long nanos, String word, String args) {
	}

	/**
	 * What a leader process's library says now.
	 * @param leads whether its check passes
	 * @param token the token a write would carry
	 */
	record Status(boolean leads, Long token) {
	}

}
