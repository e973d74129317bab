package io.zklock.test;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Connects the Spring test context of a class that carries {@link EmbeddedZooKeeper} to the
 * class's server; registered in {@code META-INF/spring.factories}.
 */
class EmbeddedZooKeeperContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return TestContextAnnotationUtils.hasAnnotation(testClass, EmbeddedZooKeeper.class)
				? new EmbeddedZooKeeperContextCustomizer(testClass) : null;
	}

}
