package io.zklock.layerfixture.internal;

/** Depends on {@link Round} only through {@link Step}: folded, Attempt and Round depend on each other. */
public class Attempt {

	/** A step of the attempt, which knows the round. */
	public static class Step {

		/** The round this step belongs to. */
		public Round round;

	}

}
