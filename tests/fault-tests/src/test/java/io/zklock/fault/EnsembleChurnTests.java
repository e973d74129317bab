package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.zklock.fault.check.FaultHistory;
import io.zklock.fault.check.Liveness;
import io.zklock.fault.check.SafetyVerdict;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.history.EventStream;
import io.zklock.fault.register.KeyStats;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.Hygiene;
import io.zklock.test.history.CheckResult;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Test 5, ensemble churn under load: three contender processes × two threads run guarded rounds
 * while the test crashes and restarts the member the holder is connected to, then the leader,
 * then two of three members at once (quorum lost for two session timeouts). No grant happens
 * without a quorum, no two holds overlap, no stale write is accepted, and after each restart
 * every contender acquires again within two session timeouts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class EnsembleChurnTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	private static final String LOCK_PATH = "churn/counter";

	/** Grants served before a crashed member comes back: the fleet works on without it. */
	private static final int GRANTS_WHILE_DOWN = 20;

	/** How long after the quorum is gone a grant may still complete (a read already under way). */
	private static final Duration QUORUM_LOSS_GRACE = Duration.ofSeconds(1);

	private FaultLab lab;

	private final List<String> livenessProblems = new ArrayList<>();

	private int holderMember;

	/** Whether the contenders hand held lock nodes to their own waiters; on in the subclass. */
	protected boolean localHandoff() {
		return false;
	}

	@BeforeAll
	void startEnsemble() throws Exception {
		this.lab = new FaultLab("5-ensemble-churn", new InProcessEnsemble(3), SESSION_TIMEOUT, localHandoff());
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	void shouldKeepLocksSafeAndLiveThroughMemberCrashesLeaderCrashAndQuorumLoss() throws Exception {
		Figures figures = new Figures(this.lab.label("5 ensemble churn")).ensemble(this.lab.ensemble().description());
		try {
			this.lab.startContenders(3, false);
			this.lab.runAll(LOCK_PATH, 2, -1, 50, 150, 7);
			List<Event> quorumLossGrants;
			try (EventStream events = this.lab.history().subscribe()) {
				Event holderMemberCrash = holderSurvivesItsMembersCrash(figures);
				crashWhileServing("crash holder's member", this.holderMember, holderMemberCrash, events, figures);

				int leader = EnsembleProbe.awaitLeader(this.lab.ensemble());
				long electionMillis = crashWhileServing("crash leader", leader, null, events, figures);
				figures.extra("leader election after the leader's crash ms", electionMillis);

				quorumLossGrants = loseQuorum(figures);
			}
			this.lab.stopAll();

			List<Event> history = this.lab.history().snapshot();
			CheckResult result = FaultHistory.check(history, LOCK_PATH);
			KeyStats stats = this.lab.register().stats(LOCK_PATH);
			figures.rounds(result.grants())
				.staleWrites(stats.rejectedStale(), stats.acceptedStale())
				.overlaps(Integer.toString(result.overlaps().size()))
				.extra("grants during quorum loss", quorumLossGrants.size())
				.extra("lock losses reported (in doubt or lost) / found on release",
						result.lossReports() + " / " + result.lostOnRelease())
				.extra("acquires failed or timed out", result.acquireFailures());

			SafetyVerdict.assertSafe(result, stats, true, this.lab.historyFile());
			assertThat(quorumLossGrants).as("grants while two of three members were down").isEmpty();
			assertThat(this.livenessProblems).as("liveness within two session timeouts after each restart").isEmpty();
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/**
	 * A contender holds the lock (the others queue behind it) when the member its session is
	 * connected to crashes. The session moves to another member within the session timeout:
	 * the library puts the lock in doubt, then, after the reconnect, confirms it with a quorum
	 * operation and holds it again, same token; the holder's write is accepted.
	 */
	private Event holderSurvivesItsMembersCrash(Figures figures) throws Exception {
		ContenderProcess holder = this.lab.live().get(0);
		long token = Long.parseLong(holder.call("hold " + LOCK_PATH + " " + this.lab.lockWait().toMillis(), "held",
				SESSION_TIMEOUT.multipliedBy(4)).split(" ")[0]);
		int port = Integer.parseInt(holder.call("status", "status", Duration.ofSeconds(10)).split(" ")[1]);
		this.holderMember = this.lab.ensemble().memberOfPort(port);
		assertThat(this.holderMember).as("member of port %d", port).isNotNegative();
		Event fault = this.lab.history().nemesis("crash holder's member", "server-" + (this.holderMember + 1));
		this.lab.ensemble().kill(this.holderMember);
		Event doubt;
		try {
			doubt = await("the holder's lock in doubt").atMost(SESSION_TIMEOUT)
				.until(() -> lossReport(holder.id(), token, "IN_DOUBT"), (e) -> e != null);
		}
		catch (ConditionTimeoutException ex) {
			// say where the holder's session is now, so that a failure tells a missed SUSPENDED (the session
			// moved to another member) from a kill that never reached the holder's connection
			throw new AssertionError("No IN_DOUBT report of " + holder.id() + "'s lock (token " + token
					+ ") within " + SESSION_TIMEOUT + " of crashing member " + this.holderMember + " (port " + port
					+ "); the holder's status now (session, server port, connected): "
					+ holder.call("status", "status", Duration.ofSeconds(10)).trim() + "; its lock state: "
					+ holder.call("state", "state", Duration.ofSeconds(10)).trim(), ex);
		}
		await("the holder's lock confirmed after the reconnect").atMost(SESSION_TIMEOUT.multipliedBy(2))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> holder.call("state", "state", Duration.ofSeconds(10)).trim(), "HELD"::equals);
		long heldAgainMillis = (System.nanoTime() - fault.nanos()) / 1_000_000;
		figures.failover(heldAgainMillis);
		String write = holder.call("write", "wrote", Duration.ofSeconds(10)).trim();
		String release = holder.call("release", "released", Duration.ofSeconds(10)).trim();
		figures.extra("holder's member crashed: lock in doubt after ms", (doubt.nanos() - fault.nanos()) / 1_000_000)
			.extra("holder's member crashed: held again (same token) after ms", "≤ " + heldAgainMillis)
			.extra("holder's member crashed: holder's write / release", write + " / " + release);
		assertThat(write).as("the write of the holder whose lock was confirmed").isEqualTo("accepted");
		assertThat(release).as("the release of the holder whose lock was confirmed").isEqualTo("RELEASED");
		assertThat(lossReport(holder.id(), token, "LOST")).as("a LOST report for the confirmed lock").isNull();
		return fault;
	}

	private Event crash(String kind, int member) throws Exception {
		Event fault = this.lab.history().nemesis(kind, "server-" + (member + 1));
		this.lab.ensemble().kill(member);
		return fault;
	}

	private Event lossReport(String process, long token, String state) {
		return this.lab.history()
			.snapshot()
			.stream()
			.filter((e) -> e.process().equals(process) && e.is("lost", "lock") && e.token() == token
					&& e.detail().equals(state))
			.findFirst()
			.orElse(null);
	}

	/**
	 * Crashes one member (unless {@code crashed} is the crash already done), waits until the
	 * fleet has been served {@link #GRANTS_WHILE_DOWN} grants without it, restarts it and checks
	 * that everyone acquires again. The failover time is from the crash to the first grant of an
	 * acquire begun after it.
	 * @return how long the remaining members took to have a leader, in ms
	 */
	private long crashWhileServing(String kind, int member, Event crashed, EventStream events, Figures figures)
			throws Exception {
		Event fault = (crashed != null) ? crashed : crash(kind, member);
		figures.fault(kind);
		int leader = EnsembleProbe.awaitLeader(this.lab.ensemble());
		long electionMillis = (System.nanoTime() - fault.nanos()) / 1_000_000;
		events.clear();
		for (int i = 0; i < GRANTS_WHILE_DOWN; i++) {
			events.next(GRANTS_WHILE_DOWN + " grants with server-" + (member + 1) + " down",
					(e) -> e.isGrant() && e.lockPath().equals(LOCK_PATH) && e.nanos() > fault.nanos(),
					SESSION_TIMEOUT.multipliedBy(3));
		}
		if (crashed == null) {
			Event fresh = Liveness.firstFreshGrantAfter(this.lab.history().snapshot(), LOCK_PATH, fault.nanos(), null);
			if (fresh != null) {
				figures.failover((fresh.nanos() - fault.nanos()) / 1_000_000);
			}
		}
		figures.extra(kind + ": leader after the crash", "server-" + (leader + 1));
		this.lab.ensemble().restart(member);
		EnsembleProbe.awaitLeader(this.lab.ensemble());
		Event heal = this.lab.history().nemesis("restart", "server-" + (member + 1));
		awaitEveryoneAcquires(kind, heal);
		return electionMillis;
	}

	/**
	 * Crashes the leader and a follower together, keeps them down for two session timeouts,
	 * restarts them and checks that everyone acquires again.
	 * @return the grants stamped while the quorum was gone
	 */
	private List<Event> loseQuorum(Figures figures) throws Exception {
		int leader = EnsembleProbe.awaitLeader(this.lab.ensemble());
		int follower = (leader + 1) % 3;
		Event fault = this.lab.history()
			.nemesis("lose quorum", "server-" + (leader + 1) + "+server-" + (follower + 1));
		this.lab.ensemble().kill(leader);
		this.lab.ensemble().kill(follower);
		long quorumGone = System.nanoTime();
		figures.fault("lose quorum (2 of 3 members) for 2 session timeouts");
		Duration outage = SESSION_TIMEOUT.multipliedBy(2);
		await().pollDelay(outage).atMost(outage.plusSeconds(5)).until(() -> true);
		long restoring = System.nanoTime();
		this.lab.ensemble().restart(leader);
		this.lab.ensemble().restart(follower);
		EnsembleProbe.awaitLeader(this.lab.ensemble());
		Event heal = this.lab.history().nemesis("restart", "server-" + (leader + 1) + "+server-" + (follower + 1));
		awaitEveryoneAcquires("lose quorum", heal);
		List<Event> history = this.lab.history().snapshot();
		Event firstAfter = Liveness.firstGrantAfter(history, LOCK_PATH, heal.nanos(), null, null);
		figures.failover((firstAfter.nanos() - heal.nanos()) / 1_000_000);
		figures.extra("quorum loss: failed acquires while down",
				history.stream()
					.filter((e) -> e.is("fail", "acquire") && e.nanos() > fault.nanos() && e.nanos() < restoring)
					.count());
		return Liveness.grantsBetween(history, LOCK_PATH, quorumGone + QUORUM_LOSS_GRACE.toNanos(), restoring);
	}

	private void awaitEveryoneAcquires(String phase, Event heal) {
		Duration bound = SESSION_TIMEOUT.multipliedBy(2);
		List<String> live = this.lab.liveIds();
		await().atMost(bound.plusSeconds(5))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Liveness.check(this.lab.history().snapshot(), live, LOCK_PATH, heal.nanos(), bound).isEmpty()
					|| System.nanoTime() - heal.nanos() > bound.toNanos());
		List<String> problems = Liveness.check(this.lab.history().snapshot(), live, LOCK_PATH, heal.nanos(), bound);
		this.livenessProblems.addAll(problems.stream().map((p) -> phase + ": " + p).collect(Collectors.toList()));
	}

}
