package io.zklock.layerfixture;

import io.zklock.layerabove.Above;

/** Breaks "the lower API knows nothing of the API built on it": it names {@link Above}. */
public class Below {

	/** The API above, against the layers. */
	public Above above;

}
