package io.zklock.annotation;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Base of the annotation test classes: one real server per class and application contexts
 * with AOP and zklock's auto-configuration connected to it.
 */
abstract class ZkAnnotationTest {

	static TestingServer server;

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	/**
	 * A runner with AOP and zklock's auto-configuration, connected to this class's server;
	 * its check that every annotated method is intercepted runs too.
	 */
	static ApplicationContextRunner lockingContext() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LockedMethodsAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());
	}

}
