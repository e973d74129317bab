package io.zklock.fault.contender;

/**
 * The contender program the fault tests start as a child JVM: a process that competes for
 * zklock locks through the library's public API, so the test can kill it ({@code SIGKILL}),
 * pause it ({@code SIGSTOP}/{@code SIGCONT}) or cut its network (through a proxy) like a real
 * service.
 *
 * <p>
 * Usage: {@code ContenderMain <process-id> <register-port>}. It reads commands from standard
 * input, one per line, and writes history events ({@code H …}) and replies ({@code R …}) to
 * standard output; anything else (logging) goes to standard error. Commands:
 * <ul>
 * <li>{@code connect <connect-string> <session-ms>} → {@code R connected <session-id>}</li>
 * <li>{@code run <lock-path>[,<lock-path>…] <threads> <rounds|-1> <min-ms> <max-ms> <reentrant-every>
 * <wait-ms> [shape=…] [give-up-every=<n>]} → {@code R running}, later {@code R run-done <rounds>};
 * worker {@code w<i>} takes the lock paths from the (i mod count)-th on, in order, and holds them all;
 * every n-th attempt of a worker waits only a few milliseconds for each lock</li>
 * <li>{@code stop} → {@code R stopped <rounds>}</li>
 * <li>{@code hold <lock-path> <wait-ms> [shape=…]} → {@code R held <token> <value>}; then
 * {@code write} → {@code R wrote accepted|rejected}, {@code state} → {@code R state <LockState>},
 * {@code release} → {@code R released <ReleaseResult>}</li>
 * <li>{@code round <lock-path> <wait-ms> [shape=…] [name=<worker>]} → {@code R round <token> accepted|rejected}
 * ({@code R round-<worker> …} for a named round, which runs on a thread of that name; {@code 0 none}
 * if not granted)</li>
 * <li>{@code status} → {@code R status <session-id> <server-port> <connected>}</li>
 * <li>{@code close} → {@code R closed}; {@code exit} ends the process</li>
 * </ul>
 * {@code shape=thread|async|async-relay} chooses the {@link CallShape} of the guarded sections
 * ({@code thread} if absent). The process also exits when its standard input closes (the test
 * JVM died).
 */
public final class ContenderMain {

	private ContenderMain() {
	}

	/**
	 * Runs the contender until {@code exit} or the end of standard input.
	 * @param args the process id and the fenced register's port
	 */
	public static void main(String[] args) throws Exception {
		CommandLoop.run(args[0], (events) -> new Contender(events, Integer.parseInt(args[1])));
	}

}
