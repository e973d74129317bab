package io.zklock.fault.contender;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The main loop of a child process of the fault suite: replies and history events go to standard
 * output (the protocol stream, kept clean by sending whatever a library prints to standard error),
 * commands come from standard input one per line. Replies {@code R started <pid>} first; a command
 * that throws is answered with {@code R error <command>: <exception>}; ends at {@code exit} (a
 * command whose handling returns {@code false}) or at the end of standard input (the test JVM
 * died), closes the process's program and exits the JVM. Shared by the contender and leader
 * processes.
 */
public final class CommandLoop {

	private CommandLoop() {
	}

	/**
	 * Runs a process's program until {@code exit} or the end of standard input, then exits the JVM.
	 * @param process the process id, as events name it
	 * @param program makes the program that handles the commands, given where it reports
	 * @throws Exception if the program cannot be made
	 */
	public static void run(String process, Program.Factory program) throws Exception {
		PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
		System.setOut(System.err);
		EventSink events = new EventSink(protocol, process);
		Program commands = program.create(events);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		events.reply("started", Long.toString(ProcessHandle.current().pid()));
		String line;
		boolean running = true;
		while (running && (line = in.readLine()) != null) {
			if (line.isBlank()) {
				continue;
			}
			try {
				running = commands.handle(line);
			}
			catch (Exception ex) {
				events.reply("error", line.split("\\s+")[0] + ": " + ex.toString().replace('\n', ' '));
			}
		}
		try {
			commands.close();
		}
		finally {
			System.exit(0);
		}
	}

	/** What a child process does with its commands. */
	public interface Program {

		/**
		 * Handles one command line.
		 * @return {@code false} to end the process
		 * @throws Exception answered with {@code R error …}
		 */
		boolean handle(String line) throws Exception;

		/**
		 * Lets go of everything before the process exits.
		 * @throws InterruptedException if interrupted while doing so
		 */
		void close() throws InterruptedException;

		/** Makes a process's program. */
		@FunctionalInterface
		interface Factory {

			Program create(EventSink events) throws Exception;

		}

	}

}
