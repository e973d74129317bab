package io.zklock.layershared;

import io.zklock.layerfixture.Api;

/** Breaks "the shared helpers import nothing above them": a helper that knows the {@link Api}. */
public class Helper {

	/** The API, against the layers. */
	public Api api;

}
