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
 * Test 4, the holder partitioned from every member through its black-hole proxy for two
 * session timeouts, then healed: the
 * rival acquires and writes; the healed holder's write is rejected by the fenced register, and
 * its library reports the lock lost within a second of the heal (at the latest). Unlike a paused
 * holder, a partitioned one runs on: under the standard connection-state policy its library
 * puts the lock in doubt before the rival can be granted, so no two holds overlap once doubt
 * counts as the end of a hold. The negative control runs the same with the register unfenced:
 * the stale write is accepted and the checker says so. The fenced run is repeated in the
 * asynchronous call shapes: the holder acquires call-owned on one thread, and its read, its late
 * write and its release run on a pool thread ({@code async}) or the release on a third thread
 * ({@code async-relay}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HolderPartitionTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private FaultLab lab;

	@BeforeAll
	void start() throws Exception {
		this.lab = new FaultLab("4-holder-partition", new InProcessEnsemble(3), SESSION_TIMEOUT);
		this.lab.startContenders(2, true);
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	@Order(1)
	void shouldRejectTheLateWriteOfAPartitionedHolderInTheFencedRegister() throws Exception {
		Figures figures = new Figures("4 partitioned holder, fenced").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "partition/fenced", HolderFault.partition(),
					true, figures);
			assertFenced(outcome);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(2)
	void shouldAcceptThePartitionedHoldersStaleWriteInAnUnfencedRegister() throws Exception {
		Figures figures = new Figures("4 partitioned holder, UNFENCED control").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "partition/unfenced",
					HolderFault.partition(), false, figures);
			assertThat(outcome.staleWrite()).as("the partitioned holder's late write, unfenced").isEqualTo("accepted");
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
	void shouldRejectTheLateWriteOfAPartitionedAsyncHolderInTheFencedRegister() throws Exception {
		Figures figures = new Figures("4 partitioned holder, fenced, async").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "partition/fenced-async",
					HolderFault.partition(), true, CallShape.ASYNC, figures);
			assertFenced(outcome);
			assertThat(outcome.releasedOn()).as("the thread that released the call-owned hold").startsWith("on=section-");
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(4)
	void shouldRejectTheLateWriteOfAPartitionedAsyncRelayHolderInTheFencedRegister() throws Exception {
		Figures figures = new Figures("4 partitioned holder, fenced, async-relay").ensemble(this.lab.ensemble().description());
		try {
			StaleHolderScenario.Outcome outcome = StaleHolderScenario.run(this.lab, "partition/fenced-async-relay",
					HolderFault.partition(), true, CallShape.ASYNC_RELAY, figures);
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
		Figures figures = new Figures("4 partitioned holder, hygiene").ensemble(this.lab.ensemble().description());
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
		assertThat(outcome.staleWrite()).as("the partitioned holder's late write").isEqualTo("rejected");
		assertThat(outcome.stats().rejectedStale()).as("stale writes rejected").isEqualTo(1);
		assertThat(outcome.lostAfterHealMillis()).as("heal → holder's library reports LOST (ms)")
			.isLessThanOrEqualTo(1000);
		assertThat(outcome.releaseResult()).as("the holder's release after the loss").isEqualTo("LOST");
		assertThat(outcome.doubtMillis()).as("fault → holder's lock in doubt (ms), before the rival's grant")
			.isBetween(0L, outcome.rivalGrantMillis());
		assertThat(outcome.result().overlapsUntilDoubt()).as("overlaps, a hold ending when put in doubt").isEmpty();
		assertThat(outcome.problems()).as("safety and liveness").isEmpty();
	}

}
