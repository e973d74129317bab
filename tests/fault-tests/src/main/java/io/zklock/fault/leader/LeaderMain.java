package io.zklock.fault.leader;

import io.zklock.fault.contender.CommandLoop;

/**
 * The leader program the leadership fault tests start as a child JVM: one candidate of a role,
 * through zklock's public leadership API ({@code LeaderElection}), whose leader work writes to the
 * test's fenced register with its term's token, so that the test can kill it ({@code SIGKILL}),
 * freeze it ({@code SIGSTOP}/{@code SIGCONT}), cut it off (through a proxy) or stop it gracefully
 * like a real service, and read from the history whether two leaders ever ran at once.
 *
 * <p>
 * Usage: {@code LeaderMain <process-id> <register-port>}. It speaks the contender's protocol
 * ({@link io.zklock.fault.contender.EventSink}: history events {@code H …} and replies {@code R …} on standard output,
 * logging on standard error). Commands, one per line on standard input:
 * <ul>
 * <li>{@code connect <connect-string> <session-ms> [lease-factor=<f>] [handover-ms=<ms>]} →
 * {@code R connected <session-id>}: a Curator client and a {@code LeaderElection} with that lease
 * factor (0.8 unless given) and handover timeout (10 s unless given)</li>
 * <li>{@code join <role> [gate=active|held] [period=<ms>] [block=onGranted|onRevoked:<ms>]} →
 * {@code R joined}: joins the role and starts the leader work ({@link LeaderWork}); {@code gate}
 * says what the work asks before each write (the term's {@code isActive()}, or for the negative
 * control only whether a term is held), {@code period} the pause between writes (5 ms unless
 * given), {@code block} a listener that blocks each {@code onGranted} or {@code onRevoked} call for
 * that long</li>
 * <li>{@code leave} → {@code R left <nanos>}: leaves the role (the term is revoked, then its node
 * deleted), then stops the work; the stamp is when the leave began ({@code -1} if no role was
 * joined)</li>
 * <li>{@code drop-connection} → {@code R dropped <nanos>}: closes the ZooKeeper client's socket
 * (a connection loss, the session kept); the stamp is taken just before</li>
 * <li>{@code status} → {@code R status <leads> <token> <candidacy-state> <session-id>}</li>
 * <li>{@code close} → {@code R closed}; {@code exit} ends the process</li>
 * </ul>
 * History events, stamped with {@link System#nanoTime()}: {@code term granted|revoked} (from a
 * listener registered first, the reason as detail), {@code conn <state>} (Curator's connection
 * states), {@code zk disconnected} and {@code zk syncconnected} (the ZooKeeper client's events
 * that the connection went and came back, on its event thread), and the work's {@code ok check}
 * (stamped just before a check that passed, the stamp of its return as detail),
 * {@code ok|fail write} (the register's answer) and {@code info stopped} (the first check that
 * failed after passing ones).
 */
public final class LeaderMain {

	private LeaderMain() {
	}

	/**
	 * Runs the leader until {@code exit} or the end of standard input.
	 * @param args the process id and the fenced register's port
	 */
	public static void main(String[] args) throws Exception {
		CommandLoop.run(args[0], (events) -> new Leader(args[0], events, Integer.parseInt(args[1])));
	}

}
