package io.zklock.kotlin

import io.zklock.autoconfigure.ZkLockAutoConfiguration
import org.apache.curator.test.TestingServer
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/**
 * Base of the Kotlin test classes: one real server per class and application contexts with
 * AOP and zklock's auto-configuration connected to it.
 */
abstract class ZkKotlinTest {

	companion object {

		private lateinit var server: TestingServer

		@BeforeAll
		@JvmStatic
		fun startServer() {
			server = TestingServer(true)
		}

		@AfterAll
		@JvmStatic
		fun stopServer() {
			server.close()
		}

	}

	/** A runner with AOP and zklock's auto-configuration, connected to this class's server. */
	protected fun lockingContext(): ApplicationContextRunner = ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration::class.java, ZkLockAutoConfiguration::class.java))
		.withPropertyValues("zklock.zookeeper.connect-string=" + server.connectString)

}
