package io.zklock.packagefixture.annotation;

import io.zklock.packagefixture.interceptor.Interceptor;

/** A user type that knows the machinery: the contract imports a layer above it. */
public class Annotated {

	Interceptor interceptor() {
		return new Interceptor();
	}

}
