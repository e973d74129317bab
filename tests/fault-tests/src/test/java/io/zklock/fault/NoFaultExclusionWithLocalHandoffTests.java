package io.zklock.fault;

/**
 * {@link NoFaultExclusionTests} with local handoff on in every contender: each contender's engine
 * hands a held lock node to its own next waiter, at most 8 times and 100 ms per node.
 */
class NoFaultExclusionWithLocalHandoffTests extends NoFaultExclusionTests {

	@Override
	protected boolean localHandoff() {
		return true;
	}

}
