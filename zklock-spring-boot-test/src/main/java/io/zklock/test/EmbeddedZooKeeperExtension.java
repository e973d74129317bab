package io.zklock.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit Jupiter extension behind {@link EmbeddedZooKeeper}: starts the class's server
 * before its tests and resolves {@link TestZooKeeper} parameters. The server is kept in the
 * class's extension store, which closes it after every {@code @AfterAll} callback of the
 * class has run (the Spring extension's included), and it deletes its data directory.
 */
public class EmbeddedZooKeeperExtension implements BeforeAllCallback, ParameterResolver {

	private static final Namespace NAMESPACE = Namespace.create(EmbeddedZooKeeperExtension.class);

	@Override
	public void beforeAll(ExtensionContext context) {
		server(context);
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return parameterContext.getParameter().getType() == TestZooKeeper.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return server(extensionContext);
	}

	private static TestZooKeeper server(ExtensionContext context) {
		ExtensionContext.Store store = context.getStore(NAMESPACE);
		// a nested class finds the server of its enclosing class in the parent store
		TestZooKeeperServers.Running running = store.get(TestZooKeeperServers.Running.class,
				TestZooKeeperServers.Running.class);
		if (running == null) {
			ExtensionContext classContext = classContext(context);
			running = TestZooKeeperServers.obtain(classContext.getRequiredTestClass());
			classContext.getStore(NAMESPACE).put(TestZooKeeperServers.Running.class, running);
		}
		return running.zookeeper();
	}

	private static ExtensionContext classContext(ExtensionContext context) {
		ExtensionContext current = context;
		while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
			current = current.getParent().get();
		}
		return current;
	}

}
