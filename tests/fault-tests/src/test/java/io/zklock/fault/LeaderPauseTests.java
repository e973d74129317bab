package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.ensemble.ServerDistribution;
import io.zklock.fault.ensemble.ServerProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.leader.LeaderFaults;
import io.zklock.fault.leader.LeaderFaults.StaleLeader;
import io.zklock.fault.leader.LeaderLab;
import io.zklock.fault.leader.LeaderProcess;
import io.zklock.fault.leader.LeadershipHistory;
import io.zklock.fault.report.Figures;
import io.zklock.test.history.TermCheckResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leadership, a leader that comes back stale: three leader processes ({@code LeaderMain}, zklock's
 * {@code LeaderElection}, session timeout T = 2 s) of one role on three ZooKeeper server processes,
 * each behind its own black-hole proxy; the leader's work checks {@code Term.isActive()} before
 * each write to the fenced register with its term's token. The leader is frozen ({@code SIGSTOP})
 * for 2T, three times, then cut off from every member for 2T, twice: each time its session
 * expires, another process leads, and it comes back. No stale write may be accepted, the resumed
 * leader may run leader work for at most 50 ms while its successor leads (its lease has run out, so
 * it stops at its first check), and the role must have exactly one leader once the fault ends. The
 * negative control runs the freeze with leader work that only asks whether a term is held (as an
 * application that follows a latch's events would): the resumed leader runs on for well over 50 ms
 * until its client finds the session expired, so the measure has teeth.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LeaderPauseTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	private static final String ROLE = "pause-role";

	/** The longest a resumed leader may run leader work while its successor leads. */
	private static final double TWO_LEADERS_MAX_MS = 50;

	private LeaderLab lab;

	@BeforeAll
	void start() throws Exception {
		ServerProcessEnsemble ensemble = new ServerProcessEnsemble(ServerDistribution.maven(), 3,
				FaultLab.outputRoot().resolve("leader-pause/servers"));
		this.lab = new LeaderLab("leader-pause", ensemble, SESSION_TIMEOUT, ROLE);
		this.lab.start(1, 3, true, "", "");
	}

	@AfterAll
	void stop() {
		if (this.lab != null) {
			this.lab.close();
		}
	}

	@Test
	@Order(1)
	void shouldStopALeaderFrozenPastItsSessionBeforeItsFirstWriteAfterItResumes() {
		Figures figures = new Figures("leader: SIGSTOP leader 2T, fenced store").ensemble(this.lab.ensemble().description());
		try {
			List<StaleLeader> runs = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				StaleLeader run = LeaderFaults.freeze(this.lab, SESSION_TIMEOUT.multipliedBy(2));
				runs.add(run);
				report(figures, run);
				this.lab.assertSoleLeaderFor(Duration.ofSeconds(1));
			}
			for (StaleLeader run : runs) {
				assertThat(run.successor()).as("the leader after %s", run.fault()).isNotEqualTo(run.leader());
				assertThat(run.nextWriteMillis()).as("fault → next leader's first write (ms)").isPositive();
				assertThat(run.stale().accepted()).as("stale writes accepted: %s", run.describe()).isZero();
				assertThat(run.twoLeaders().millis()).as("two running leaders (ms): %s", run.describe())
					.isLessThanOrEqualTo(TWO_LEADERS_MAX_MS);
				// its lease ran out while it was frozen: its first check after it resumes fails
				assertThat(run.twoLeaders().checks()).as("checks passed while the successor led: %s", run.describe())
					.isZero();
			}
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(2)
	void shouldStopALeaderCutOffPastItsSessionAndLetNoStaleWriteIn() {
		Figures figures = new Figures("leader: partition leader 2T, fenced store").ensemble(this.lab.ensemble().description());
		try {
			List<StaleLeader> runs = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				StaleLeader run = LeaderFaults.cutOff(this.lab, SESSION_TIMEOUT.multipliedBy(2));
				runs.add(run);
				report(figures, run);
				this.lab.assertSoleLeaderFor(Duration.ofSeconds(1));
			}
			for (StaleLeader run : runs) {
				assertThat(run.successor()).as("the leader after %s", run.fault()).isNotEqualTo(run.leader());
				assertThat(run.stale().accepted()).as("stale writes accepted: %s", run.describe()).isZero();
				assertThat(run.twoLeaders().millis()).as("two running leaders (ms): %s", run.describe())
					.isLessThanOrEqualTo(TWO_LEADERS_MAX_MS);
				// cut off, it stops by its lease or at SUSPENDED, before the server can expire its session
				assertThat(run.stoppedMillis()).as("partition → leader work stopped (ms): %s", run.describe())
					.isLessThan(SESSION_TIMEOUT.toMillis());
			}
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(3)
	void shouldLetAFrozenLeaderRunOnWhenItsWorkOnlyAsksWhetherItHoldsATerm() {
		Figures figures = new Figures("leader: SIGSTOP leader 2T, work gated on a held term (NEGATIVE control)")
			.ensemble(this.lab.ensemble().description());
		try {
			rejoinAll("gate=held");
			StaleLeader run = LeaderFaults.freeze(this.lab, SESSION_TIMEOUT.multipliedBy(2));
			report(figures, run);
			assertThat(run.twoLeaders().checks())
				.as("checks passed while the successor led, when the work ignores jeopardy and the lease: %s",
						run.describe())
				.isPositive();
			assertThat(run.stale().refused()).as("stale writes the fenced store refused: %s", run.describe()).isPositive();
			assertThat(run.stale().accepted()).as("stale writes accepted: %s", run.describe()).isZero();
		}
		finally {
			rejoinAll("");
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(4)
	void shouldKeepOneFencedWriterPerTermAndLeaveNothingBehind() {
		Figures figures = new Figures("leader: pause tests, history and hygiene").ensemble(this.lab.ensemble().description());
		try {
			this.lab.assertSoleLeaderFor(Duration.ofSeconds(1));
			TermCheckResult terms = LeadershipHistory.checkTerms(this.lab.history().snapshot(), ROLE);
			figures.extra("terms / resumptions", terms.terms() + " / " + terms.resumptions())
				.extra("writes accepted / refused with a term's token", terms.acceptedWrites() + " / " + terms.refusedWrites())
				.extra("accepted after their term's revocation was heard", terms.acceptedAfterRevocation());
			terms.assertOneFencedWriterPerTerm();
			List<String> left = this.lab.closeLeadersAndListNodesLeft();
			figures.leaks(left.size(), 0);
			assertThat(left).as("nodes under the leadership root with every leader closed").isEmpty();
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/** Every process leaves the role, then joins it again with {@code options}, the current leader last. */
	private void rejoinAll(String options) {
		List<LeaderProcess> live = this.lab.live();
		live.forEach(LeaderProcess::leave);
		live.forEach((leader) -> leader.join(options));
		this.lab.awaitSoleLeader(Duration.ofSeconds(30));
	}

	private static void report(Figures figures, StaleLeader run) {
		figures.fault(run.fault().split(" ")[0])
			.staleWrites(run.stale().refused(), run.stale().accepted())
			.failover(run.nextWriteMillis())
			.extra(run.leader() + "@" + run.token(), run.describe());
	}

}
