package io.zklock.fault;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.contender.CallShape;
import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.HolderFault;
import io.zklock.fault.scenario.Hygiene;
import io.zklock.fault.scenario.StaleHolderScenario;
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
 * Test 3, the holder paused past its session ({@code SIGSTOP} for two session timeouts): the
 * rival acquires and writes; the resumed holder's write is rejected by the fenced register, and
 * its library reports the lock lost within a second of resuming. The negative control runs the
 * same with the register unfenced: the stale write is accepted and the checker says so. The
 * fenced run is repeated in the asynchronous call shapes: the holder acquires call-owned on one
 * thread, and its read, its late write and its release run on a pool thread ({@code async}) or
 * the release on a third thread ({@code async-relay}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HolderPauseTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private FaultLab lab;

	@BeforeAll
	void start() throws Exception {
		this.lab = new FaultLab("3-holder-pause", new InProcessEnsemble(3), SESSION_TIMEOUT);
		this.lab.startContenders(2, false);
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	@Order(1)
	void shouldRejectTheLateWriteOfAPausedHolderInTheFencedRegister() throws Exception {
		Figures figures = new Figures("3 SIGSTOP holder, fenced").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "pause/fenced", HolderFault.pause(),
					true, figures);
			assertFenced(outcome);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(2)
	void shouldAcceptThePausedHoldersStaleWriteInAnUnfencedRegister() throws Exception {
		Figures figures = new Figures("3 SIGSTOP holder, UNFENCED control").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "pause/unfenced",
					HolderFault.pause(), false, figures);
			assertThat(outcome.staleWrite()).as("the paused holder's late write, unfenced").isEqualTo("accepted");
			assertThat(outcome.stats().acceptedStale()).as("stale writes accepted, unfenced").isEqualTo(1);
			assertThat(outcome.problems()).as("what the checker finds in the unfenced run")
				.anyMatch((problem) -> problem.contains("stale write(s) accepted"))
				.anyMatch((problem) -> problem.startsWith("Lost update"));
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(3)
	void shouldRejectTheLateWriteOfAPausedAsyncHolderInTheFencedRegister() throws Exception {
		Figures figures = new Figures("3 SIGSTOP holder, fenced, async").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "pause/fenced-async",
					HolderFault.pause(), true, CallShape.ASYNC, figures);
			assertFenced(outcome);
			assertThat(outcome.releasedOn()).as("the thread that released the call-owned hold").startsWith("on=section-");
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(4)
	void shouldRejectTheLateWriteOfAPausedAsyncRelayHolderInTheFencedRegister() throws Exception {
		Figures figures = new Figures("3 SIGSTOP holder, fenced, async-relay").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "pause/fenced-async-relay",
					HolderFault.pause(), true, CallShape.ASYNC_RELAY, figures);
			assertFenced(outcome);
			assertThat(outcome.releasedOn()).as("the thread that released the call-owned hold").startsWith("on=release-");
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(5)
	void shouldLeaveNothingBehind() throws Exception {
		Figures figures = new Figures("3 SIGSTOP holder, hygiene").ensemble(this.lab.ensemble().description());
		try {
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/** The criteria of every fenced run, whatever the call shape. */
	private static void assertFenced(StaleHolderScenario.Outcome outcome) {
		assertThat(outcome.rivalAccepted()).as("the rival's write").isTrue();
		assertThat(outcome.rivalToken()).as("the rival's token").isGreaterThan(outcome.holderToken());
		assertThat(outcome.staleWrite()).as("the paused holder's late write").isEqualTo("rejected");
		assertThat(outcome.stats().rejectedStale()).as("stale writes rejected").isEqualTo(1);
		assertThat(outcome.lostAfterHealMillis()).as("resume → holder's library reports LOST (ms)")
			.isLessThanOrEqualTo(1000);
		assertThat(outcome.releaseResult()).as("the holder's release after the loss").isEqualTo("LOST");
		assertThat(outcome.problems()).as("safety and liveness").isEmpty();
	}

}
