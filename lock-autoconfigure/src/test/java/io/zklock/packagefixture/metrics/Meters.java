package io.zklock.packagefixture.metrics;

import io.zklock.packagefixture.interceptor.Interceptor;

/** An optional part that knows the machinery. */
public class Meters {

	Interceptor interceptor() {
		return new Interceptor();
	}

}
