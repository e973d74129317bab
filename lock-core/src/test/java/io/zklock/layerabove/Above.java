package io.zklock.layerabove;

import io.zklock.layerfixture.Api;
import io.zklock.layerfixture.internal.Machine;

/**
 * An API built on the fixture's API ({@code io.zklock.layerfixture}), as leadership is built on the
 * lock engine, that breaks the rules between the two: a public signature names the lower API's
 * machinery, and it uses that machinery; using the lower API itself is allowed.
 */
public class Above {

	/** The lower API: allowed. */
	public Api api;

	/** The lower API's machinery in a public signature, and so used. */
	public Machine machine() {
		return new Machine();
	}

}
