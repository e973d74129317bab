package io.zklock.fault.contender;

import java.io.PrintStream;

/**
 * Writes the contender's side of the protocol to the test JVM, one line each: history events
 * ({@code H <nanos> <process> <thread> <type> <f> <lockPath> <token> <detail>}) and replies to
 * commands ({@code R <word> <args>}). Stamps are {@link System#nanoTime()}, which on Linux is
 * {@code CLOCK_MONOTONIC} and so comparable across the processes of one machine.
 *
 * <p>
 * Thread-safe.
 */
public final class EventSink {

	private final PrintStream out;

	private final String process;

	/**
	 * Creates a sink.
	 * @param out the stream the test JVM reads (the child's original standard output)
	 * @param process this contender's process id in the history, such as {@code c1}
	 */
	public EventSink(PrintStream out, String process) {
		this.out = out;
		this.process = process;
	}

	/**
	 * Records one history event, stamped now.
	 * @param thread the worker, such as {@code w0}
	 * @param type {@code invoke}, {@code ok}, {@code fail} or {@code lost}
	 * @param f the operation: {@code acquire}, {@code release}, {@code read}, {@code write},
	 * {@code lock}
	 * @param lockPath the lock path (also the register key)
	 * @param token the fencing token, {@code 0} if none
	 * @param detail a word without spaces, or {@code null}
	 */
	public void event(String thread, String type, String f, String lockPath, long token, String detail) {
		event(System.nanoTime(), thread, type, f, lockPath, token, detail);
	}

	/**
	 * Records one history event with a stamp taken earlier, such as the moment just before a check
	 * whose outcome decides whether the event happened at all.
	 * @param nanos the stamp, on {@link System#nanoTime()}
	 * @param thread the worker
	 * @param type the event's type
	 * @param f the operation
	 * @param lockPath the lock path or role
	 * @param token the fencing token, {@code 0} if none
	 * @param detail a word without spaces, or {@code null}
	 */
	public void event(long nanos, String thread, String type, String f, String lockPath, long token, String detail) {
		line("H " + nanos + " " + this.process + " " + thread + " " + type + " " + f + " " + lockPath + " " + token
				+ " " + word(detail));
	}

	/**
	 * Sends a reply to a command.
	 * @param word the reply's first word, which the test waits for
	 * @param args the rest of the line, or empty
	 */
	public void reply(String word, String args) {
		line("R " + word + (args.isEmpty() ? "" : " " + args));
	}

	private synchronized void line(String line) {
		this.out.println(line);
		this.out.flush();
	}

	private static String word(String detail) {
		if (detail == null || detail.isEmpty()) {
			return "-";
		}
		return detail.replaceAll("\\s+", "_");
	}

}
