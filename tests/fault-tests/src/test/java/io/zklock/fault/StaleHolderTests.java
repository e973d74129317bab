package io.zklock.fault;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

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
 * Tests 3 and 4, one scenario under two faults: the holder is cut off for two session timeouts
 * ({@link HolderPauseTests}: paused; {@link HolderPartitionTests}: partitioned), then let back: the
 * rival acquires and writes; the stale holder's write is rejected by the fenced register, and its
 * library reports the lock lost within a second of the fault's end. The negative control runs the
 * same with the register unfenced: the stale write is accepted and the checker says so. The fenced
 * run is repeated in the asynchronous call shapes: the holder acquires call-owned on one thread,
 * and its read, its late write and its release run on a pool thread ({@code async}) or the
 * release on a third thread ({@code async-relay}). Each subclass names its fault, and may add
 * criteria of its own to a fenced run ({@link #assertFencedByThisFault}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
abstract class StaleHolderTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private final Fault fault;

	private FaultLab lab;

	StaleHolderTests(Fault fault) {
		this.fault = fault;
	}

	@BeforeAll
	void start() throws Exception {
		this.lab = new FaultLab(this.fault.lab(), new InProcessEnsemble(3), SESSION_TIMEOUT);
		this.lab.startContenders(2, this.fault.proxied());
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	@Order(1)
	void shouldRejectTheLateWriteOfTheStaleHolderInTheFencedRegister() throws Exception {
		run("fenced", "fenced", true, CallShape.THREAD, this::assertFenced);
	}

	@Test
	@Order(2)
	void shouldAcceptTheStaleHoldersWriteInAnUnfencedRegister() throws Exception {
		run("UNFENCED control", "unfenced", false, CallShape.THREAD, (outcome) -> {
			assertThat(outcome.staleWrite()).as("the " + this.fault.holder() + "'s late write, unfenced")
				.isEqualTo("accepted");
			assertThat(outcome.stats().acceptedStale()).as("stale writes accepted, unfenced").isEqualTo(1);
			assertThat(outcome.problems()).as("what the checker finds in the unfenced run")
				.anyMatch((problem) -> problem.contains("stale write(s) accepted"))
				.anyMatch((problem) -> problem.startsWith("Lost update"));
		});
	}

	@Test
	@Order(3)
	void shouldRejectTheLateWriteOfTheStaleAsyncHolderInTheFencedRegister() throws Exception {
		run("fenced, async", "fenced-async", true, CallShape.ASYNC, (outcome) -> {
			assertFenced(outcome);
			assertThat(outcome.releasedOn()).as("the thread that released the call-owned hold").startsWith("on=section-");
		});
	}

	@Test
	@Order(4)
	void shouldRejectTheLateWriteOfTheStaleAsyncRelayHolderInTheFencedRegister() throws Exception {
		run("fenced, async-relay", "fenced-async-relay", true, CallShape.ASYNC_RELAY, (outcome) -> {
			assertFenced(outcome);
			assertThat(outcome.releasedOn()).as("the thread that released the call-owned hold").startsWith("on=release-");
		});
	}

	@Test
	@Order(5)
	void shouldLeaveNothingBehind() throws Exception {
		Figures figures = figures("hygiene");
		try {
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/** Criteria of every fenced run that hold for this fault only; none unless a subclass adds them. */
	void assertFencedByThisFault(StaleHolderScenario.Outcome outcome) {
	}

	/**
	 * Runs the scenario once under this fault on the lock path {@code <scenario>/<name>}, checks its
	 * outcome, and reports its figures whatever the outcome.
	 */
	private void run(String run, String name, boolean fenced, CallShape shape,
			Consumer<StaleHolderScenario.Outcome> check) throws Exception {
		Figures figures = figures(run);
		try {
			check.accept(StaleHolderScenario.run(this.lab, this.fault.scenario() + "/" + name, this.fault.injected(),
					fenced, shape, figures));
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	private Figures figures(String run) {
		return new Figures(this.fault.figures() + ", " + run).ensemble(this.lab.ensemble().description());
	}

	/** The criteria of every fenced run, whatever the call shape. */
	private void assertFenced(StaleHolderScenario.Outcome outcome) {
		assertThat(outcome.rivalAccepted()).as("the rival's write").isTrue();
		assertThat(outcome.rivalToken()).as("the rival's token").isGreaterThan(outcome.holderToken());
		assertThat(outcome.staleWrite()).as("the " + this.fault.holder() + "'s late write").isEqualTo("rejected");
		assertThat(outcome.stats().rejectedStale()).as("stale writes rejected").isEqualTo(1);
		assertThat(outcome.lostAfterHealMillis()).as(this.fault.end() + " → holder's library reports LOST (ms)")
			.isLessThanOrEqualTo(1000);
		assertThat(outcome.releaseResult()).as("the holder's release after the loss").isEqualTo("LOST");
		assertFencedByThisFault(outcome);
		assertThat(outcome.problems()).as("safety and liveness").isEmpty();
	}

	/**
	 * One fault of the scenario and its names.
	 * @param injected the fault
	 * @param proxied whether the contenders reach the ensemble through proxies the fault can cut
	 * @param lab the lab's name (its output folder), such as {@code 3-holder-pause}
	 * @param scenario the prefix of each run's name, such as {@code pause}
	 * @param figures the prefix of each run's figures, such as {@code 3 SIGSTOP holder}
	 * @param holder the holder as the assertions name it, such as {@code paused holder}
	 * @param end the fault's end as the assertions name it, such as {@code resume}
	 */
	record Fault(HolderFault injected, boolean proxied, String lab, String scenario, String figures, String holder,
			String end) {
	}

}
