package io.zklock.fault;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.ensemble.InProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.HolderKillScenario;
import io.zklock.fault.scenario.Hygiene;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Test 2, the holder crashes: three contender processes; eight times, the holder's JVM is
 * killed with {@code SIGKILL} in the middle of its guarded section. The rival is granted within
 * the session timeout plus one second, no hold overlaps, no stale write is accepted, everyone
 * acquires again after the last crash, and nothing is left behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class HolderKillTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private FaultLab lab;

	@BeforeAll
	void startEnsemble() throws Exception {
		this.lab = new FaultLab("2-holder-kill", new InProcessEnsemble(3), SESSION_TIMEOUT);
	}

	@AfterAll
	void stop() {
		this.lab.close();
	}

	@Test
	void shouldLetARivalAcquireWithinTheSessionTimeoutPlusOneSecondAfterTheHolderIsKilled() throws Exception {
		Figures figures = new Figures("2 SIGKILL holder").ensemble(this.lab.ensemble().description());
		try {
			HolderKillScenario.run(this.lab, "kill/counter", 3, 8, figures);
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

}
