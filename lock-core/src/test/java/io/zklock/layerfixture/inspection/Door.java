package io.zklock.layerfixture.inspection;

import io.zklock.layerfixture.internal.Machine;

/**
 * An inspection of the engine: uses the machinery, which uses it back (a package cycle), and names it
 * in a public signature.
 */
public class Door {

	/** The machine behind the door. */
	public final Machine machine = new Machine();

}
