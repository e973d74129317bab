package io.zklock.packagefixture.interceptor;

import io.zklock.packagefixture.annotation.Annotated;
import io.zklock.packagefixture.autoconfigure.Wiring;

/** Machinery that knows the wiring above it (and the contract, which closes a cycle). */
public class Interceptor {

	Annotated annotated() {
		return new Annotated();
	}

	Wiring wiring() {
		return new Wiring();
	}

}
