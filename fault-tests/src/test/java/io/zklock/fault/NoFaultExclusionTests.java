package io.zklock.fault;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.Hygiene;
import io.zklock.fault.scenario.NoFaultScenario;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Test 1, no faults: 4 contender processes × 4 threads, 2,000 guarded read–sleep–write rounds
 * on one hot lock of a three-member ensemble. Zero overlaps, zero stale writes, no lost
 * update, reentrant acquires keep their token, nothing left behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NoFaultExclusionTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	private FaultLab lab;

	@BeforeAll
	void startEnsemble() throws Exception {
		this.lab = new FaultLab("1-no-fault", new InProcessEnsemble(3), SESSION_TIMEOUT);
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	void fourProcessesOfFourThreadsNeverHoldTheLockTogether() throws Exception {
		Figures figures = new Figures("1 no faults").ensemble(this.lab.ensemble().description());
		try {
			NoFaultScenario.run(this.lab, "nofault/counter", 4, 4, 2000, figures);
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

}
