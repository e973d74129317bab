package io.zklock.fault.leader;

import java.time.Duration;
import java.util.List;

import io.zklock.fault.history.Event;
import io.zklock.fault.history.EventStream;

import static org.awaitility.Awaitility.await;

/**
 * The faults of the leadership tests, each injected on one leader process of a {@link LeaderLab},
 * and what each showed, read from the history: a leader frozen ({@code SIGSTOP}) or cut off from
 * every member (its black-hole proxy) for a while, a leader killed ({@code SIGKILL}), a leader that
 * leaves gracefully, a leader whose connection drops (its socket closed, the session kept).
 */
public final class LeaderFaults {

	private LeaderFaults() {
	}

	/**
	 * What a freeze or a cut-off of a leader showed, once the role had one leader again.
	 *
	 * @param fault the fault's name
	 * @param leader the process hit
	 * @param token its term's token when the fault began
	 * @param faultNanos when the fault began
	 * @param healNanos when it ended (resume, heal)
	 * @param successor the process that led afterwards
	 * @param successorToken its term's token
	 * @param nextWriteMillis from the fault to the first write the register accepted with a larger
	 * token (-1 if none: the leader kept the role)
	 * @param stale the writes that reached the register after a later term began
	 * @param twoLeaders leader work that ran while a later term had begun
	 * @param stoppedMillis from the fault to the hit leader's last passed check before the heal
	 * (negative: it had stopped before)
	 * @param suspendedToStoppedMillis from the hit leader's {@code SUSPENDED} to that last check
	 * (negative: it stopped before it was suspended, by its lease), or {@code null} if it reported
	 * no suspension before the heal
	 * @param revocation how the hit leader's term was revoked, from its listener (the reasons in
	 * order), or {@code "-"}
	 */
	public record StaleLeader(String fault, String leader, long token, long faultNanos, long healNanos,
			String successor, long successorToken, long nextWriteMillis, LeaderTimeline.StaleWrites stale,
			LeaderTimeline.TwoLeaders twoLeaders, long stoppedMillis, Long suspendedToStoppedMillis,
			String revocation) {

		/** One line for the figures. */
		public String describe() {
			return String.format(java.util.Locale.ROOT,
					"%s of %s (token %d): next write after %d ms by %s (token %d); stale writes %d accepted, %d refused; "
							+ "two running leaders %.1f ms (%d checks); stopped %d ms after the fault%s; revoked: %s",
					this.fault, this.leader, this.token, this.nextWriteMillis, this.successor, this.successorToken,
					this.stale.accepted(), this.stale.refused(), this.twoLeaders.millis(), this.twoLeaders.checks(),
					this.stoppedMillis,
					(this.suspendedToStoppedMillis != null) ? ", " + this.suspendedToStoppedMillis + " ms after SUSPENDED"
							: "",
					this.revocation);
		}

	}

	/** Freezes the sole leader with {@code SIGSTOP} for {@code duration}, resumes it, and reads what happened. */
	public static StaleLeader freeze(LeaderLab lab, Duration duration) {
		LeaderProcess leader = lab.awaitSoleLeader(lab.sessionTimeout().multipliedBy(3).plusSeconds(10));
		long token = leader.status().token();
		Event fault = lab.nemesis("SIGSTOP leader", leader.id());
		leader.pause();
		sleepUntil(fault.nanos() + duration.toNanos());
		Event heal = lab.nemesis("SIGCONT leader", leader.id());
		leader.resume();
		return after(lab, "SIGSTOP " + duration.toMillis() + " ms", leader, token, fault, heal);
	}

	/** Cuts the sole leader off from every member for {@code duration} (its proxy black-holes), heals, and reads what happened. */
	public static StaleLeader cutOff(LeaderLab lab, Duration duration) {
		LeaderProcess leader = lab.awaitSoleLeader(lab.sessionTimeout().multipliedBy(3).plusSeconds(10));
		long token = leader.status().token();
		Event fault = lab.nemesis("partition leader", leader.id());
		lab.proxyOf(leader).blackHole();
		sleepUntil(fault.nanos() + duration.toNanos());
		Event heal = lab.nemesis("heal partition", leader.id());
		lab.proxyOf(leader).heal();
		return after(lab, "partition " + duration.toMillis() + " ms", leader, token, fault, heal);
	}

	private static StaleLeader after(LeaderLab lab, String name, LeaderProcess leader, long token, Event fault,
			Event heal) {
		LeaderProcess successor = lab.awaitSoleLeader(lab.sessionTimeout().multipliedBy(3).plusSeconds(10));
		long successorToken = successor.status().token();
		// the hit leader's late events (a frozen process writes them after it resumes) are in by now
		long end = System.nanoTime();
		List<Event> history = lab.history().snapshot();
		LeaderTimeline timeline = LeaderTimeline.of(history, lab.role());
		long nextWrite = timeline.firstAcceptedWriteAbove(token, fault.nanos());
		long lastPass = timeline.lastPass(token, fault.nanos() - Duration.ofSeconds(1).toNanos(), heal.nanos());
		Long suspendedToStopped = history.stream()
			.filter((e) -> e.process().equals(leader.id()) && e.is("conn", "suspended") && e.nanos() >= fault.nanos()
					&& e.nanos() <= heal.nanos())
			.findFirst()
			.map((e) -> (lastPass - e.nanos()) / 1_000_000)
			.orElse(null);
		String revocation = String.join(",", history.stream()
			.filter((e) -> e.process().equals(leader.id()) && e.is("term", "revoked") && e.token() == token
					&& e.nanos() >= fault.nanos())
			.map(Event::detail)
			.toList());
		return new StaleLeader(name, leader.id(), token, fault.nanos(), heal.nanos(), successor.id(), successorToken,
				(nextWrite < 0) ? -1 : (nextWrite - fault.nanos()) / 1_000_000, timeline.staleWrites(fault.nanos(), end),
				timeline.twoRunningLeaders(fault.nanos(), end, List.of(heal.nanos())),
				(lastPass < 0) ? Long.MIN_VALUE : (lastPass - fault.nanos()) / 1_000_000, suspendedToStopped,
				revocation.isEmpty() ? "-" : revocation);
	}

	/**
	 * Kills the sole leader with {@code SIGKILL} and waits for the next leader's first write.
	 * @return from the kill to the first write the register accepted with a larger token, in ms
	 */
	public static long kill(LeaderLab lab, LeaderProcess leader) throws InterruptedException {
		long token = leader.status().token();
		try (EventStream events = lab.history().subscribe()) {
			Event fault = lab.nemesis("kill -9 leader", leader.id());
			leader.kill();
			Event next = events.next("a write of the next leader (token above " + token + ")",
					(e) -> isAcceptedWrite(e, lab.role()) && e.token() > token,
					lab.sessionTimeout().multipliedBy(5).plusSeconds(10));
			return (next.nanos() - fault.nanos()) / 1_000_000;
		}
	}

	/**
	 * Has the sole leader leave the role gracefully and waits for the next leader's first write.
	 * @return from the start of the leave to the first write the register accepted with a larger
	 * token, in microseconds
	 */
	public static long handOver(LeaderLab lab, LeaderProcess leader) throws InterruptedException {
		long token = leader.status().token();
		try (EventStream events = lab.history().subscribe()) {
			long began = leader.leave();
			Event next = events.next("a write of the next leader (token above " + token + ")",
					(e) -> isAcceptedWrite(e, lab.role()) && e.token() > token, Duration.ofSeconds(30));
			return (next.nanos() - began) / 1_000;
		}
	}

	private static boolean isAcceptedWrite(Event e, String role) {
		return e.process().equals("register") && e.type().equals("write") && !e.f().equals("rejected")
				&& e.lockPath().equals(role);
	}

	/**
	 * What one connection drop showed.
	 *
	 * @param noticedMicros from the drop (the socket closed) to the ZooKeeper client's
	 * {@code Disconnected}, the suspension: the client notices at its next look at the socket
	 * @param stoppedMicros from the suspension to the return of the last check the leader work began
	 * after it and passed before the client reconnected (0 if none): how long leader work ran on
	 * while suspended
	 * @param revocation how the term was revoked, as its work saw it ({@code CONNECTION_SUSPENDED},
	 * or {@code LEASE_EXPIRED} if the lease ran out first), or {@code "-"}
	 */
	public record Suspension(long noticedMicros, long stoppedMicros, String revocation) {

	}

	/**
	 * Drops the leader's connection (its socket closed; the client reconnects on the same session)
	 * and waits until it leads again.
	 */
	public static Suspension dropConnection(LeaderLab lab, LeaderProcess leader) throws InterruptedException {
		long token = leader.status().token();
		try (EventStream events = lab.history().subscribe()) {
			long dropped = leader.dropConnection();
			Event disconnected = events.next(leader.id() + "'s Disconnected",
					(e) -> e.process().equals(leader.id()) && e.is("zk", "disconnected"), Duration.ofSeconds(30));
			// the client counts as connected again from its SyncConnected on (Curator's RECONNECTED follows)
			Event reconnected = events.next(leader.id() + "'s reconnection",
					(e) -> e.process().equals(leader.id()) && e.is("zk", "syncconnected"), Duration.ofSeconds(30));
			events.next(leader.id() + "'s leader work after the reconnection",
					(e) -> e.process().equals(leader.id()) && e.is("ok", "check") && e.token() == token
							&& e.nanos() > reconnected.nanos(),
					Duration.ofSeconds(30));
			List<Event> history = lab.history().snapshot();
			long lastPass = LeaderTimeline.of(history, lab.role()).lastPassWithin(token, disconnected.nanos(),
					reconnected.nanos());
			String revocation = history.stream()
				.filter((e) -> e.process().equals(leader.id()) && e.is("info", "stopped") && e.nanos() >= dropped
						&& e.nanos() <= reconnected.nanos())
				.map(Event::detail)
				.findFirst()
				.orElse("-");
			return new Suspension((disconnected.nanos() - dropped) / 1_000,
					(lastPass < 0) ? 0 : (lastPass - disconnected.nanos()) / 1_000, revocation);
		}
	}

	/** Waits until {@code deadline} ({@link System#nanoTime()}): a fault's duration, not a condition. */
	public static void sleepUntil(long deadline) {
		Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
		await().pollDelay(left).atMost(left.plusSeconds(5)).until(() -> true);
	}

}
