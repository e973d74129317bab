package io.zklock.fault.scenario;

import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.report.Figures;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The last step of every fault test: no watch left on lock nodes while the contenders idle,
 * no node left under the lock root once they closed.
 */
public final class Hygiene {

	private Hygiene() {
	}

	/** Closes the lab's contenders, reports what was left and fails if anything was. */
	public static void closeAndAssertNoLeaks(FaultLab lab, Figures figures) throws Exception {
		FaultLab.Leaks leaks = lab.closeContendersAndCheckLeaks();
		figures.leaks(leaks.nodes().size(), leaks.watches().size());
		assertThat(leaks.watches()).as("watches on lock nodes with every contender idle (member:path)").isEmpty();
		assertThat(leaks.nodes()).as("nodes under the lock root with every contender closed").isEmpty();
	}

}
