package io.zklock.test;

import java.util.List;

import io.zklock.lock.ILockByCurator;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Shows {@link LockAssert} the {@link ILockByCurator} beans of every Spring test context, so
 * that it sees locks taken through them as well as those of annotated calls; registered in
 * {@code META-INF/spring.factories}. The same customizer for every test class, so it does not
 * split Spring's context cache.
 */
class LockAssertContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new Customizer();
	}

	private static final class Customizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof ILockByCurator locks) {
						LockAssert.watch(locks);
					}
					return bean;
				}

			});
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Customizer;
		}

		@Override
		public int hashCode() {
			return Customizer.class.hashCode();
		}

	}

}
