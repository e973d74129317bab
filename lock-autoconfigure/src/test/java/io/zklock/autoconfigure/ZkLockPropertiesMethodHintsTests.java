package io.zklock.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the method hints of {@link ZkLockPropertiesRuntimeHints}, apart from
 * {@link ZkLockPropertiesRuntimeHintsTests} because they are checked with Spring Framework 7's
 * {@code onMethodInvocation} predicate, which 6.2 does not have: tests/boot35-tests runs the rest
 * on Spring Boot 3.5 and leaves this class out.
 */
class ZkLockPropertiesMethodHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	ZkLockPropertiesMethodHintsTests() {
		new ZkLockPropertiesRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void shouldRegisterTheInvocationOfTheSettersForBinding() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ZkLockProperties.class.getMethod("setRootPath", String.class))).accepts(this.hints);
	}

}
