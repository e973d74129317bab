package io.zklock.layerfixture.internal;

import io.zklock.layerfixture.inspection.Door;

/** Breaks "the machinery imports no inspection": it knows {@link Door}, which knows it. */
public class Machine {

	/** Returns a door, against the layers. */
	public Door door() {
		return null;
	}

}
