package io.zklock.fault.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.history.Event;
import io.zklock.fault.history.History;
import io.zklock.fixtures.Signals;
import io.zklock.lock.internal.LocalHandoff;

/**
 * A contender child JVM ({@code io.zklock.fault.contender.ContenderMain}) seen from the test:
 * commands go to its standard input, its history events go to the {@link History}, its
 * replies are awaited by word. It can be killed, paused and resumed with signals; a kill is
 * recorded in the history as the holder's death.
 *
 * <p>
 * Thread-safe.
 */
public final class ContenderProcess implements AutoCloseable {

	private static final String MAIN_CLASS = "io.zklock.fault.contender.ContenderMain";

	private final String id;

	private final Process process;

	private final History history;

	private final Writer stdin;

	private final List<String[]> replies = new ArrayList<>();

	private volatile boolean exitExpected;

	private volatile boolean paused;

	private volatile boolean outputClosed;

	private ContenderProcess(String id, Process process, History history) {
		this.id = id;
		this.process = process;
		this.history = history;
		this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
		Thread reader = new Thread(this::readOutput, "contender-" + id + "-out");
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts a contender JVM and waits until it runs.
	 * @param id its process id in the history, such as {@code c1}
	 * @param registerPort the fenced register's port
	 * @param history where its events go
	 * @param logDir where its standard error is written ({@code <id>.log})
	 * @param localHandoff whether, and how far, its engine hands held lock nodes to its own
	 * waiters
	 */
	public static ContenderProcess start(String id, int registerPort, History history, Path logDir,
			LocalHandoff localHandoff) {
		List<String> flags = new ArrayList<>(ChildJvm.smallJvmFlags("64m"));
		flags.add("-Dzklock.fault.local-handoff=" + localHandoff.enabled());
		flags.add("-Dzklock.fault.local-handoff.max-handoffs=" + localHandoff.maxHandoffs());
		flags.add("-Dzklock.fault.local-handoff.max-time=" + localHandoff.maxTime().toMillis());
		return start(id, MAIN_CLASS, List.of(id, Integer.toString(registerPort)), history, logDir, flags);
	}

	/**
	 * Starts another program that speaks the contender's protocol (history events and replies
	 * on standard output, {@code R started <pid>} first) and waits until it runs.
	 * @param id its process id in the history
	 * @param mainClass its main class, on the test classpath
	 * @param args its program arguments
	 * @param history where its events go
	 * @param logDir where its standard error is written ({@code <id>.log})
	 */
	public static ContenderProcess start(String id, String mainClass, List<String> args, History history,
			Path logDir) {
		return start(id, mainClass, args, history, logDir, ChildJvm.smallJvmFlags("64m"));
	}

	private static ContenderProcess start(String id, String mainClass, List<String> args, History history,
			Path logDir, List<String> jvmFlags) {
		Process process = ChildJvm.start(ChildJvm.testClasspath(), jvmFlags, mainClass, args,
				logDir.resolve(id.replace('#', '-') + ".log"), false);
		ContenderProcess contender = new ContenderProcess(id, process, history);
		contender.awaitReply("started", Duration.ofSeconds(60));
		return contender;
	}

	public String id() {
		return this.id;
	}

	public long pid() {
		return this.process.pid();
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	public boolean isPaused() {
		return this.paused;
	}

	/**
	 * Opens the contender's ZooKeeper session.
	 * @return its session id in hex
	 */
	public String connect(String connectString, Duration sessionTimeout) {
		return call("connect " + connectString + " " + sessionTimeout.toMillis(), "connected",
				sessionTimeout.multipliedBy(2).plusSeconds(30));
	}

	/** Sends a command without waiting for a reply (a paused contender reads it on resume). */
	public void send(String command) {
		try {
			synchronized (this.stdin) {
				this.stdin.write(command + "\n");
				this.stdin.flush();
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Contender " + this.id + " does not take commands (exited?)", ex);
		}
	}

	/** Sends a command and waits for the reply starting with {@code word}; returns the rest. */
	public String call(String command, String word, Duration timeout) {
		send(command);
		return awaitReply(word, timeout);
	}

	/**
	 * Waits for the next reply starting with {@code word} and returns the rest of its line.
	 * @throws AssertionError on an {@code error} reply, if the process ends, or on timeout
	 */
	public synchronized String awaitReply(String word, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			for (Iterator<String[]> it = this.replies.iterator(); it.hasNext();) {
				String[] reply = it.next();
				if (reply[0].equals(word)) {
					it.remove();
					return reply[1];
				}
				if (reply[0].equals("error")) {
					it.remove();
					throw new AssertionError("Contender " + this.id + " answered an error while the test waited for '"
							+ word + "': " + reply[1]);
				}
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new AssertionError("Contender " + this.id + " sent no '" + word + "' within " + timeout.toMillis()
						+ " ms" + (this.process.isAlive() ? "" : " (it exited with " + this.process.exitValue() + ")"));
			}
			if (this.outputClosed) {
				throw new AssertionError("Contender " + this.id + " exited while the test waited for '" + word + "'");
			}
			try {
				TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError("Interrupted while waiting for '" + word + "' from " + this.id, ex);
			}
		}
	}

	/** Crashes the contender with {@code SIGKILL}; records its death once it is gone. */
	public Event kill() {
		this.exitExpected = true;
		Signals.kill(pid());
		awaitExit();
		this.paused = false;
		return this.history.record(this.id, "died", "kill", null, 0, "SIGKILL");
	}

	/** Freezes the contender with {@code SIGSTOP}. */
	public void pause() {
		Signals.stop(pid());
		this.paused = true;
	}

	/** Lets a paused contender run on with {@code SIGCONT}. */
	public void resume() {
		Signals.resume(pid());
		this.paused = false;
	}

	private void awaitExit() {
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				throw new AssertionError("Contender " + this.id + " still runs 20 s after SIGKILL");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
	}

	private void readOutput() {
		try (BufferedReader out = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = out.readLine()) != null) {
				if (line.startsWith("H ")) {
					try {
						this.history.add(Event.parse(line.substring(2)));
					}
					catch (RuntimeException ex) {
						// a line cut short by SIGKILL
					}
				}
				else if (line.startsWith("R ")) {
					String[] words = line.substring(2).split(" ", 2);
					synchronized (this) {
						this.replies.add(new String[] { words[0], (words.length > 1) ? words[1] : "" });
						notifyAll();
					}
				}
			}
		}
		catch (IOException ex) {
			// the process is gone
		}
		if (!this.exitExpected) {
			this.history.record(this.id, "died", "exit", null, 0, "unexpected");
		}
		synchronized (this) {
			this.outputClosed = true;
			notifyAll();
		}
	}

	/** Closes the contender: releases its locks, closes its session and ends the JVM. */
	@Override
	public void close() {
		if (!this.process.isAlive()) {
			return;
		}
		if (this.paused) {
			resume();
		}
		this.exitExpected = true;
		try {
			send("exit");
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (RuntimeException ex) {
			this.process.destroyForcibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

	@Override
	public String toString() {
		return "contender " + this.id + " (pid " + pid() + ")";
	}

}
