package io.zklock.layerfixture.spi;

import io.zklock.layerfixture.internal.Machine;

/** The SPI's front door: uses the machinery, which uses it back (a package cycle). */
public class Door {

	/** The machine behind the door. */
	public final Machine machine = new Machine();

}
