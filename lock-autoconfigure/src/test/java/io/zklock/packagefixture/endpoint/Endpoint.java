package io.zklock.packagefixture.endpoint;

import io.zklock.packageengine.internal.Machine;
import io.zklock.packagefixture.annotation.support.Holder;

/**
 * An optional part that uses the engine's machinery and shows it, and the annotation's support, in
 * public signatures; a package-private method that uses the support is allowed.
 */
public class Endpoint {

	/** The engine's machinery, in a public signature. */
	public Machine machine() {
		return new Machine();
	}

	/** The annotation's support, in a public signature. */
	public Holder holder() {
		return new Holder();
	}

	Holder quietly() {
		return new Holder();
	}

}
