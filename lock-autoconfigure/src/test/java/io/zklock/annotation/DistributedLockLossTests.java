package io.zklock.annotation;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.autoconfigure.ZkLockAutoConfiguration;
import io.zklock.fixtures.Sessions;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@code zklock.on-lock-lost}: what an annotated method's caller sees when the
 * lock is lost while the method runs. Session timeout 4 s.
 */
@Timeout(90)
@Tag("slow")
class DistributedLockLossTests {

	private TestingServer server;

	@BeforeEach
	void startServer() throws Exception {
		this.server = new TestingServer(true);
	}

	@AfterEach
	void stopServer() throws Exception {
		this.server.close();
	}

	private ApplicationContextRunner runner(String policy) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues("zklock.zookeeper.connect-string=" + this.server.getConnectString(),
					"zklock.zookeeper.session-timeout=4s", "zklock.zookeeper.connection-timeout=1s",
					"zklock.on-lock-lost=" + policy)
			.withUserConfiguration(JobConfiguration.class);
	}

	@Test
	void shouldReplaceTheResultWithFailureWhenTheSessionExpiredDuringTheCall() {
		runner("fail").run((context) -> {
			Job job = context.getBean(Job.class);
			CompletableFuture<String> call = CompletableFuture.supplyAsync(job::run);
			assertThat(job.awaitEntered()).isTrue();
			expireSession(context.getBean(CuratorFramework.class));
			await().atMost(Duration.ofSeconds(10)).until(() -> job.lock().state() == LockState.LOST);
			job.proceed();
			assertThat(call).failsWithin(Duration.ofSeconds(10))
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOf(LockLostException.class)
				.withMessageContaining("'jobs'")
				.withMessageContaining("Job.run()")
				.withMessageContaining("LOST");
		});
	}

	@Test
	void shouldKeepTheResultWhenTheLockWasConfirmedAfterReconnecting() {
		runner("fail").run((context) -> {
			Job job = context.getBean(Job.class);
			CompletableFuture<String> call = CompletableFuture.supplyAsync(job::run);
			assertThat(job.awaitEntered()).isTrue();
			this.server.stop();
			await().atMost(Duration.ofSeconds(10)).until(() -> job.lock().state() == LockState.IN_DOUBT);
			this.server.restart();
			await().atMost(Duration.ofSeconds(10)).until(() -> job.lock().state() == LockState.HELD);
			job.proceed();
			assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		});
	}

	@Test
	void shouldStopTheMethodAtOnceWhenAskedToInterrupt() {
		runner("interrupt").run((context) -> {
			Job job = context.getBean(Job.class);
			CompletableFuture<String> call = CompletableFuture.supplyAsync(job::run);
			assertThat(job.awaitEntered()).isTrue();
			expireSession(context.getBean(CuratorFramework.class));
			assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("interrupted");
		});
	}

	@Test
	void shouldKeepTheResultWhenAskedToIgnore() {
		runner("ignore").run((context) -> {
			Job job = context.getBean(Job.class);
			CompletableFuture<String> call = CompletableFuture.supplyAsync(job::run);
			assertThat(job.awaitEntered()).isTrue();
			expireSession(context.getBean(CuratorFramework.class));
			await().atMost(Duration.ofSeconds(10)).until(() -> job.lock().state() == LockState.LOST);
			job.proceed();
			assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		});
	}

	private void expireSession(CuratorFramework client) throws Exception {
		Sessions.expire(client, this.server.getConnectString());
	}

	static class Job {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch proceed = new CountDownLatch(1);

		volatile LockHandle lock;

		public boolean awaitEntered() throws InterruptedException {
			return this.entered.await(10, TimeUnit.SECONDS);
		}

		public void proceed() {
			this.proceed.countDown();
		}

		public LockHandle lock() {
			return this.lock;
		}

		@DistributedLock(path = "jobs")
		public String run() {
			this.lock = LockContext.currentLock().orElseThrow();
			this.entered.countDown();
			try {
				if (!this.proceed.await(30, TimeUnit.SECONDS)) {
					return "timed out";
				}
				return "done";
			}
			catch (InterruptedException ex) {
				return "interrupted";
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class JobConfiguration {

		@Bean
		Job job() {
			return new Job();
		}

	}

}
