package io.zklock.layerfixture.event;

import io.zklock.layerfixture.internal.Machine;

/** Breaks "the events import the API only": a signal that knows the {@link Machine}. */
public class Signal {

	/** The machine that sent it, against the layers (and in a public signature). */
	public Machine machine;

}
