package io.zklock.layerfixture.internal;

/** Depends on {@link Attempt}; Attempt depends back only through its nested class. */
public class Round {

	/** The attempt of this round. */
	public Attempt attempt;

}
