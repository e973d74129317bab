package io.zklock.packagefixture.health;

import io.zklock.packagefixture.metrics.Meters;

/** An optional part that knows another part. */
public class Health {

	Meters meters() {
		return new Meters();
	}

}
