package io.zklock.annotation;

import io.zklock.autoconfigure.LockedMethodsAutoConfiguration;
import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.autoconfigure.ZkServerTest;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Base of the annotation test classes: one real server per class and application contexts
 * with AOP and zklock's auto-configuration connected to it.
 */
public abstract class ZkAnnotationTest extends ZkServerTest {

	/**
	 * A runner with AOP and zklock's auto-configuration, connected to this class's server;
	 * its check that every annotated method is intercepted runs too.
	 */
	protected static ApplicationContextRunner lockingContext() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class,
					LockedMethodsAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + server.getConnectString());
	}

}
