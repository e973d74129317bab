package io.zklock.fault.leader;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.history.Event;
import io.zklock.fault.history.History;

/**
 * A leader child JVM ({@code io.zklock.fault.leader.LeaderMain}) seen from the test: its
 * commands, and the signals of the {@link ContenderProcess} it runs as (its history events go to
 * the lab's {@link History}).
 *
 * <p>
 * Thread-safe.
 */
public final class LeaderProcess implements AutoCloseable {

	private static final String MAIN_CLASS = "io.zklock.fault.leader.LeaderMain";

	private static final Duration REPLY = Duration.ofSeconds(30);

	private final ContenderProcess process;

	private final String role;

	private LeaderProcess(ContenderProcess process, String role) {
		this.process = process;
		this.role = role;
	}

	/**
	 * Starts a leader JVM, opens its session and joins the role.
	 * @param id its process id in the history, such as {@code c1}
	 * @param role the role it is a candidate of (also the register key)
	 * @param registerPort the fenced register's port
	 * @param connectString the ensemble, or its proxy
	 * @param sessionTimeout the session timeout
	 * @param connectOptions words added to {@code connect}, such as {@code handover-ms=500}
	 * @param joinOptions words added to {@code join}, such as {@code gate=held}
	 */
	static LeaderProcess start(String id, String role, int registerPort, String connectString,
			Duration sessionTimeout, String connectOptions, String joinOptions, History history, Path logDir) {
		ContenderProcess process = ContenderProcess.start(id, MAIN_CLASS, List.of(id, Integer.toString(registerPort)),
				history, logDir);
		LeaderProcess leader = new LeaderProcess(process, role);
		process.call(("connect " + connectString + " " + sessionTimeout.toMillis() + " " + connectOptions).trim(),
				"connected", sessionTimeout.multipliedBy(2).plusSeconds(30));
		leader.join(joinOptions);
		return leader;
	}

	public String id() {
		return this.process.id();
	}

	public long pid() {
		return this.process.pid();
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	public boolean isPaused() {
		return this.process.isPaused();
	}

	/** Joins the role (again, after {@link #leave()}): it queues at the back. */
	public void join(String options) {
		this.process.call(("join " + this.role + " " + options).trim(), "joined", REPLY);
	}

	/**
	 * Leaves the role gracefully: the work stops, the term is revoked, then its node deleted.
	 * @return when the leave began, on {@link System#nanoTime()}
	 */
	public long leave() {
		return Long.parseLong(this.process.call("leave", "left", REPLY).trim());
	}

	/**
	 * Closes the ZooKeeper client's socket (a connection loss within the session).
	 * @return when, on {@link System#nanoTime()}, just before the socket was closed
	 */
	public long dropConnection() {
		return Long.parseLong(this.process.call("drop-connection", "dropped", REPLY).trim());
	}

	/** What the process says of its candidacy now. */
	public Status status() {
		String[] words = this.process.call("status", "status", REPLY).trim().split(" ");
		return new Status(Boolean.parseBoolean(words[0]), Long.parseLong(words[1]), words[2]);
	}

	/** Freezes the JVM with {@code SIGSTOP}. */
	public void pause() {
		this.process.pause();
	}

	/** Lets the JVM run on with {@code SIGCONT}. */
	public void resume() {
		this.process.resume();
	}

	/** Crashes the JVM with {@code SIGKILL}; records its death. */
	public Event kill() {
		return this.process.kill();
	}

	@Override
	public void close() {
		this.process.close();
	}

	@Override
	public String toString() {
		return "leader " + id() + " (pid " + pid() + ")";
	}

	/**
	 * What a leader process says of its candidacy.
	 *
	 * @param leads whether it leads now ({@code Candidacy.isLeader()}: a term, and active)
	 * @param token its term's token, 0 if it holds none
	 * @param state its {@code CandidacyState}
	 */
	public record Status(boolean leads, long token, String state) {

	}

}
