package io.zklock.fault;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.contender.CallShape;
import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.Hygiene;
import io.zklock.fault.scenario.NoFaultScenario;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Test 1, no faults: 4 contender processes × 4 threads, 2,000 guarded read–sleep–write rounds
 * on one hot lock of a three-member ensemble, in each call shape: thread-owned rounds on one
 * thread (re-entered every tenth round), and call-owned rounds whose section runs and releases
 * on a pool thread ({@code async}) or releases on a third thread ({@code async-relay}). Zero
 * overlaps, zero stale writes, no lost update, reentrant acquires keep their token, nothing
 * left behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NoFaultExclusionTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	private FaultLab lab;

	/** Whether the contenders hand held lock nodes to their own waiters; on in the subclass. */
	protected boolean localHandoff() {
		return false;
	}

	@BeforeAll
	void startEnsemble() throws Exception {
		this.lab = new FaultLab("1-no-fault", new InProcessEnsemble(3), SESSION_TIMEOUT, localHandoff());
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	@Order(1)
	void shouldNeverLetFourProcessesOfFourThreadsHoldTheLockTogether() throws Exception {
		run("1 no faults", "nofault/counter", CallShape.THREAD);
	}

	@Test
	@Order(2)
	void shouldNeverLetAsyncCallsReleasedOnPoolThreadsHoldTheLockTogether() throws Exception {
		run("1 no faults, async", "nofault/async", CallShape.ASYNC);
	}

	@Test
	@Order(3)
	void shouldNeverLetAsyncCallsReleasedOnAThirdThreadHoldTheLockTogether() throws Exception {
		run("1 no faults, async-relay", "nofault/async-relay", CallShape.ASYNC_RELAY);
	}

	@Test
	@Order(4)
	void shouldLeaveNothingBehind() throws Exception {
		Figures figures = new Figures(this.lab.label("1 no faults, hygiene")).ensemble(this.lab.ensemble().description());
		try {
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	private void run(String test, String lockPath, CallShape shape) throws Exception {
		Figures figures = new Figures(this.lab.label(test)).ensemble(this.lab.ensemble().description());
		try {
			NoFaultScenario.run(this.lab, lockPath, 4, 4, 2000, shape, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

}
