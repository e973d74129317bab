package io.zklock.fault;

/**
 * {@link RandomizedFaultSoakTests} with local handoff on in every contender: kills,
 * pauses and partitions land in the middle of local chains. In the soak profile only, like its base.
 */
class RandomizedFaultWithLocalHandoffSoakTests extends RandomizedFaultSoakTests {

	@Override
	protected boolean localHandoff() {
		return true;
	}

}
