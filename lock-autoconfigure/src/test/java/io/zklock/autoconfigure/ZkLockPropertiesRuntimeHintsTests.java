package io.zklock.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZkLockPropertiesRuntimeHints} (once part of
 * {@code DistributedLockRuntimeHints}).
 */
class ZkLockPropertiesRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	ZkLockPropertiesRuntimeHintsTests() {
		new ZkLockPropertiesRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void shouldBeRegisteredInAotFactories() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(ZkLockPropertiesRuntimeHints.class);
	}

	@Test
	void shouldRegisterConfigurationPropertiesForBinding() {
		assertThat(RuntimeHintsPredicates.reflection().onType(ZkLockProperties.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(ZkLockProperties.ZooKeeper.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(ZkLockProperties.ZooKeeper.Ssl.Store.class))
			.accepts(this.hints);
		// the invocation of a setter: ZkLockPropertiesMethodHintsTests
	}

}
