package io.zklock.interceptor;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the method hints of {@link DistributedLockRuntimeHints}, apart from
 * {@link DistributedLockRuntimeHintsTests} because they are checked with Spring Framework 7's
 * {@code onMethodInvocation} predicate, which 6.2 does not have: tests/boot35-tests runs the rest
 * on Spring Boot 3.5 and leaves this class out.
 */
class DistributedLockMethodHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	DistributedLockMethodHintsTests() {
		new DistributedLockRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void shouldRegisterTheInvocationOfEachGetterOfTheKeyExpressionRootObject() throws Exception {
		for (String getter : new String[] { "getMethod", "getArgs", "getTarget" }) {
			Method method = LockKeyResolver.RootObject.class.getMethod(getter);
			assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method)).accepts(this.hints);
		}
	}

}
