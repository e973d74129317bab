package io.zklock.autoconfigure.leadership;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import io.zklock.annotation.LeaderScoped;
import io.zklock.autoconfigure.ZkLockStartupException;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader-scoped beans: named in the properties as well as annotated, stopped within the handover
 * time-out, and refused at start-up when zklock could not start and stop them for the leader only.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class LeaderScopedBeansTests extends LeadershipTest {

	private final TransitionLog log = new TransitionLog();

	@Test
	void shouldRunABeanNamedInThePropertiesOnTheLeader() {
		instance("a").withBean("listenerContainer", RecordingLifecycle.class,
				() -> new RecordingLifecycle(this.log, "a", "listenerContainer", 0))
			.withPropertyValues("zklock.leadership.roles.billing-close.leader-scoped-beans=listenerContainer")
			.run((context) -> {
				awaitTerm(context, "billing-close");
				await().atMost(WAIT).until(() -> this.log.entries().contains("a: start listenerContainer"));
			});
	}

	@Test
	void shouldHandTheRoleOverWhenABeanDoesNotStopWithinTheHandoverTimeout(CapturedOutput output) {
		SlowToStop slow = new SlowToStop();
		instance("a").withBean("slow", SlowToStop.class, () -> slow)
			.withPropertyValues("zklock.leadership.roles.billing-close.leader-scoped-beans=slow",
					"zklock.leadership.handover-timeout=200ms")
			.run((context) -> {
				awaitTerm(context, "billing-close");
				await().atMost(WAIT).until(slow::isRunning);
				context.getBean(LeaderElection.class).candidacy("billing-close").orElseThrow()
					.stepDown(RevocationReason.YIELDED);
				// the node is gone while the bean still stops: the time-out, not the bean, ended the wait
				assertThat(context.getBean(CuratorFramework.class).getChildren().forPath("/leaders/billing-close"))
					.isEmpty();
				assertThat(slow.isRunning()).isTrue();
				await().atMost(WAIT).until(() -> output.getOut().contains("Leader-scoped beans of role 'billing-close' "
						+ "did not stop within zklock.leadership.handover-timeout (200 ms): [slow] may still run while "
						+ "the role is handed over"));
				await().atMost(WAIT).until(() -> !slow.isRunning());
			});
	}

	@Test
	void shouldFailOnALeaderScopedBeanThatIsNotALifecycle() {
		instance("a").withUserConfiguration(NotALifecycle.class).run((context) -> {
			assertThat(context).hasFailed();
			ZkLockStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).isEqualTo("Bean 'invoiceSender' (java.lang.StringBuilder) is "
					+ "leader-scoped for role 'billing-close' but is not a Lifecycle, so zklock cannot start it when this "
					+ "instance leads and stop it when the term is revoked.");
			assertThat(failure.getAction()).isEqualTo("Make it a SmartLifecycle whose isAutoStartup() is false (such as "
					+ "a message listener container with autoStartup=false), or, for leader-only methods, annotate them "
					+ "with @LeaderOnly(\"billing-close\") instead of scoping the bean.");
		});
	}

	@Test
	void shouldFailOnALeaderScopedBeanThatStartsWithTheContext() {
		instance("a").withUserConfiguration(StartsItself.class).run((context) -> {
			assertThat(context).hasFailed();
			ZkLockStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).isEqualTo("Bean 'container' (" + AutoStarting.class.getName()
					+ ") is leader-scoped for role 'billing-close' but starts with the application context "
					+ "(isAutoStartup() is true), so it would run on every instance, not only on the leader.");
			assertThat(failure.getAction()).startsWith("Set its autoStartup to false (such as setAutoStartup(false), "
					+ "@KafkaListener(autoStartup = \"false\")");
		});
	}

	@Test
	void shouldFailOnABeanScopedToTwoRoles() {
		instance("a").withUserConfiguration(AnnotatedLifecycle.class)
			.withPropertyValues("zklock.leadership.roles.reports.leader-scoped-beans=consumer")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(startupFailure(context.getStartupFailure()).getDescription()).isEqualTo("Bean 'consumer' is "
						+ "leader-scoped for role 'reports' and, by @LeaderScoped on bean 'consumer', for role "
						+ "'billing-close': the leaders of two roles would start and stop it.");
			});
	}

	@Test
	void shouldFailOnALeaderScopedPrototype() {
		instance("a").withUserConfiguration(PrototypeLifecycle.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(startupFailure(context.getStartupFailure()).getDescription()).isEqualTo("Bean 'consumer' ("
					+ RecordingLifecycle.class.getName() + ") is leader-scoped for role 'billing-close' but is not a "
					+ "singleton, so zklock cannot tell which instance to start and stop.");
		});
	}

	@Test
	void shouldFailOnAnAnnotatedRoleThatIsNotALockPath() {
		instance("a").withUserConfiguration(InvalidRole.class).run((context) -> {
			assertThat(context).hasFailed();
			ZkLockStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).startsWith("@LeaderScoped on bean 'consumer' has an invalid role "
					+ "'billing/./close': ");
			assertThat(failure.getAction()).startsWith("Write the role as a lock path under the leadership root");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class NotALifecycle {

		@Bean
		@LeaderScoped("billing-close")
		StringBuilder invoiceSender() {
			return new StringBuilder();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StartsItself {

		@Bean
		@LeaderScoped("billing-close")
		AutoStarting container() {
			return new AutoStarting();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedLifecycle {

		@Bean
		@LeaderScoped("billing-close")
		RecordingLifecycle consumer() {
			return new RecordingLifecycle(new TransitionLog(), "a", "consumer", 0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrototypeLifecycle {

		@Bean
		@Scope(BeanDefinition.SCOPE_PROTOTYPE)
		@LeaderScoped("billing-close")
		RecordingLifecycle consumer() {
			return new RecordingLifecycle(new TransitionLog(), "a", "consumer", 0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InvalidRole {

		@Bean
		@LeaderScoped("billing/./close")
		RecordingLifecycle consumer() {
			return new RecordingLifecycle(new TransitionLog(), "a", "consumer", 0);
		}

	}

	/** A lifecycle bean that starts with the context, as a listener container does by default. */
	static class AutoStarting implements SmartLifecycle {

		private volatile boolean running;

		@Override
		public void start() {
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

	}

	/** A bean whose stop finishes on a thread of its own two seconds later, as a container's may. */
	static class SlowToStop implements SmartLifecycle {

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public void stop(Runnable callback) {
			Thread stopping = new Thread(() -> {
				try {
					// the message in hand takes this long to finish
					Thread.sleep(Duration.ofSeconds(2).toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				this.running = false;
				callback.run();
			});
			stopping.setDaemon(true);
			stopping.start();
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public boolean isAutoStartup() {
			return false;
		}

	}

}
