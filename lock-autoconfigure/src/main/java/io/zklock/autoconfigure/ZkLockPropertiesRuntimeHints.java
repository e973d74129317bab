package io.zklock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

/**
 * The {@link RuntimeHints} for binding {@link ZkLockProperties}, which the annotation's advisor
 * binds from the environment itself (it is created before the properties bean exists), for
 * ahead-of-time processing; registered in {@code META-INF/spring/aot.factories}.
 */
class ZkLockPropertiesRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		BindableRuntimeHintsRegistrar.forTypes(ZkLockProperties.class).registerHints(hints, classLoader);
	}

}
