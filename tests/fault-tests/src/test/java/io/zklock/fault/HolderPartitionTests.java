package io.zklock.fault;

import io.zklock.fault.scenario.HolderFault;
import io.zklock.fault.scenario.StaleHolderScenario;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test 4, the holder partitioned from every member through its black-hole proxy for two session
 * timeouts, then healed: the rival acquires and writes; the healed holder's write is rejected by
 * the fenced register, and its library reports the lock lost within a second of the heal (at the
 * latest). Unlike a paused holder, a partitioned one runs on: under the standard
 * connection-state policy its library puts the lock in doubt before the rival can be granted, so
 * no two holds overlap once doubt counts as the end of a hold. The runs and their other criteria
 * are those of every stale holder ({@link StaleHolderTests}).
 */
class HolderPartitionTests extends StaleHolderTests {

	HolderPartitionTests() {
		super(new Fault(HolderFault.partition(), true, "4-holder-partition", "partition", "4 partitioned holder",
				"partitioned holder", "heal"));
	}

	@Override
	void assertFencedByThisFault(StaleHolderScenario.Outcome outcome) {
		assertThat(outcome.doubtMillis()).as("fault → holder's lock in doubt (ms), before the rival's grant")
			.isBetween(0L, outcome.rivalGrantMillis());
		assertThat(outcome.result().overlapsUntilDoubt()).as("overlaps, a hold ending when put in doubt").isEmpty();
	}

}
