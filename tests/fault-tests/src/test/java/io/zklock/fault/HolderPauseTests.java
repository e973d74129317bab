package io.zklock.fault;

import io.zklock.fault.scenario.HolderFault;

/**
 * Test 3, the holder paused past its session ({@code SIGSTOP} for two session timeouts): the
 * rival acquires and writes; the resumed holder's write is rejected by the fenced register, and
 * its library reports the lock lost within a second of resuming. The runs and their criteria are
 * those of every stale holder ({@link StaleHolderTests}).
 */
class HolderPauseTests extends StaleHolderTests {

	HolderPauseTests() {
		super(new Fault(HolderFault.pause(), false, "3-holder-pause", "pause", "3 SIGSTOP holder", "paused holder",
				"resume"));
	}

}
