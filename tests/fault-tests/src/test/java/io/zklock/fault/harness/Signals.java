package io.zklock.fault.harness;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Sends POSIX signals with {@code kill} (found on the {@code PATH}): {@code KILL} crashes a
 * process, {@code STOP} freezes every thread of it (a GC pause or VM stall, as Jepsen's
 * {@code hammer-time}), {@code CONT} lets it run on.
 */
public final class Signals {

	private Signals() {
	}

	public static void kill(long pid) {
		send("KILL", pid);
	}

	public static void stop(long pid) {
		send("STOP", pid);
	}

	public static void resume(long pid) {
		send("CONT", pid);
	}

	private static void send(String signal, long pid) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
				.start();
			if (!kill.waitFor(10, TimeUnit.SECONDS)) {
				kill.destroyForcibly();
				throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish in 10 s");
			}
			if (kill.exitValue() != 0) {
				String output = new String(kill.getInputStream().readAllBytes()).trim();
				throw new IllegalStateException("kill -" + signal + " " + pid + " failed (exit " + kill.exitValue()
						+ "): " + output);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not run kill -" + signal + " " + pid, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending " + signal + " to " + pid, ex);
		}
	}

}
