package io.zklock.autoconfigure;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's own {@link CuratorFramework}, which zklock locks through but never starts
 * or closes: one that is still not started when the application starts, or already closed,
 * fails start-up naming the bean; one that a lifecycle bean starts (as Spring Integration's
 * {@code CuratorFrameworkFactoryBean} does, in phase {@code Integer.MIN_VALUE + 1000}) is
 * fine.
 */
@Timeout(60)
class ApplicationClientStateTests extends ZkServerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkLockAutoConfiguration.class));

	@Test
	void shouldFailNamingTheBeanWhenTheApplicationsClientWasNeverStarted() {
		this.contextRunner.withUserConfiguration(NeverStartedClientConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("zklock locks through the application's CuratorFramework "
					+ "bean 'ordersCuratorFramework' (ensemble '" + server.getConnectString() + "'), but that client "
					+ "was never started (state LATENT): every lock would wait for a connection that never comes, "
					+ "as if it were held elsewhere.");
			assertThat(analysis.getAction()).isEqualTo("Start the client where it is defined: "
					+ "@Bean(initMethod = \"start\", destroyMethod = \"close\"), or call start() before returning it "
					+ "(zklock never starts or closes a client it did not build). Or remove the bean, and zklock "
					+ "builds and starts its own from zklock.zookeeper.*.");
		});
	}

	@Test
	void shouldFailNamingTheBeanWhenTheApplicationsClientIsAlreadyClosed() {
		this.contextRunner.withUserConfiguration(ClosedClientConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new ZkLockFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("zklock locks through the application's CuratorFramework "
					+ "bean 'ordersCuratorFramework' (ensemble '" + server.getConnectString() + "'), but that client "
					+ "is already closed (state STOPPED), and a closed Curator client cannot be started again: every "
					+ "lock would wait for a connection that never comes, as if it were held elsewhere.");
			assertThat(analysis.getAction()).isEqualTo("Leave the client open while the application runs (look for a "
					+ "close() or a try-with-resources around it) and let the application context close it: "
					+ "@Bean(destroyMethod = \"close\").");
		});
	}

	@Test
	void shouldLockThroughAClientThatALifecycleBeanStarts() {
		this.contextRunner.withUserConfiguration(LifecycleStartedClientConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			try (LockHandle lock = context.getBean(ILockByCurator.class).acquire("orders/42", LockMode.EXCLUSIVE)) {
				assertThat(lock.isHeld()).isTrue();
			}
		});
	}

	private static CuratorFramework client() {
		return CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.namespace("orders")
			.retryPolicy(new RetryOneTime(100))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	static class NeverStartedClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework ordersCuratorFramework() {
			return client();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ClosedClientConfiguration {

		@Bean
		CuratorFramework ordersCuratorFramework() throws InterruptedException {
			try (CuratorFramework client = client()) {
				client.start();
				assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
				return client;
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LifecycleStartedClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework ordersCuratorFramework() {
			return client();
		}

		/** Starts the client in the phase of Spring Integration's CuratorFrameworkFactoryBean. */
		@Bean
		SmartLifecycle ordersCuratorStarter(CuratorFramework ordersCuratorFramework) {
			return new SmartLifecycle() {

				private volatile boolean running;

				@Override
				public void start() {
					ordersCuratorFramework.start();
					this.running = true;
				}

				@Override
				public void stop() {
					this.running = false;
				}

				@Override
				public boolean isRunning() {
					return this.running;
				}

				@Override
				public int getPhase() {
					return Integer.MIN_VALUE + 1000;
				}

			};
		}

	}

}
