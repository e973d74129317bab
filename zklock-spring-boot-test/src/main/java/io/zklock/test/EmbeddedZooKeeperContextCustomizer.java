package io.zklock.test;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;

/**
 * Points one test class's application context at its server: the connection properties, just
 * below the test's inline properties, and the {@link TestZooKeeper}, {@link LockRecorder} and (lazy,
 * for an application with leadership) {@link LeadershipTester} beans. Part of the context cache key: every class gets a context of its own.
 */
final class EmbeddedZooKeeperContextCustomizer implements ContextCustomizer {

	static final String PROPERTY_SOURCE_NAME = "zklockEmbeddedZooKeeper";

	private final Class<?> testClass;

	EmbeddedZooKeeperContextCustomizer(Class<?> testClass) {
		this.testClass = testClass;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		TestZooKeeperServers.Running running = TestZooKeeperServers.find(this.testClass);
		if (running == null) {
			// a context made before the extension's beforeAll (a PER_CLASS test instance)
			running = TestZooKeeperServers.obtain(this.testClass);
		}
		// Spring Boot has just set its logging up for this context, with the server's loggers at INFO
		TestServerLogLevels.quiet();
		ConfigurableEnvironment environment = context.getEnvironment();
		Map<String, Object> properties = new LinkedHashMap<>();
		for (String pair : running.zookeeper().propertyValues()) {
			int equals = pair.indexOf('=');
			properties.put(pair.substring(0, equals), pair.substring(equals + 1));
		}
		MutablePropertySources sources = environment.getPropertySources();
		MapPropertySource source = new MapPropertySource(PROPERTY_SOURCE_NAME, properties);
		if (sources.contains(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME, source);
		}
		else {
			sources.addFirst(source);
		}
		String rootPath = environment.getProperty("zklock.root-path", TestZooKeeper.DEFAULT_ROOT_PATH);
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton("zklockTestZooKeeper", running.zookeeper().withRootPath(rootPath));
		beanFactory.registerSingleton("zklockTestLockRecorder", new LockRecorder());
		if (beanFactory instanceof BeanDefinitionRegistry registry) {
			// lazy: made when a test asks for it, from the application's election, which exists only with leadership on
			RootBeanDefinition tester = new RootBeanDefinition(LeadershipTester.class,
					() -> LeadershipTester.of(context));
			tester.setLazyInit(true);
			registry.registerBeanDefinition("zklockTestLeadershipTester", tester);
		}
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof EmbeddedZooKeeperContextCustomizer customizer)
				&& this.testClass.equals(customizer.testClass);
	}

	@Override
	public int hashCode() {
		return this.testClass.hashCode();
	}

}
