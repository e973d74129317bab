package io.zklock.annotation;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockDeadlockException;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deadlock detector through {@code @DistributedLock}: two synchronous annotated calls, each
 * holding one lock (thread-owned) and calling a method that locks the other's. Both without a wait
 * limit: a true deadlock, and the call that closes it fails at once with
 * {@link LockDeadlockException} while the other goes on. One with a {@code waitTime}: that call runs
 * out (its time-out names the cycle) and the one without a limit goes on once it gave up. Before,
 * that one failed after a few milliseconds with {@code LockDeadlockException}, although the timed
 * call was about to give up its lock.
 */
@Timeout(60)
class DistributedLockDeadlockTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(TransferConfiguration.class);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void shouldFailTheCallThatClosesADeadlockOfTwoUnboundedWaitsAtOnce() {
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			Postings postings = context.getBean(Postings.class);
			CountDownLatch firstHolds = new CountDownLatch(1);
			CountDownLatch secondHolds = new CountDownLatch(1);
			Future<String> first = this.threads.submit(named("transfer-first", () -> accounts.transfer("a", () -> {
				firstHolds.countDown();
				secondHolds.await();
				return postings.postWithoutLimit("b");
			})));
			assertThat(firstHolds.await(20, TimeUnit.SECONDS)).isTrue();
			Future<String> second = this.threads.submit(named("transfer-second", () -> accounts.transfer("b", () -> {
				secondHolds.countDown();
				awaitQueued(context, "accounts/b", 2);
				return postings.postWithoutLimit("a");
			})));
			assertThat(second.get(30, TimeUnit.SECONDS)).as("the call that closed the cycle, at once")
				.startsWith("LockDeadlockException: Deadlock in this process: thread 'transfer-second' waits for the "
						+ "EXCLUSIVE lock on 'accounts/a'")
				.contains("thread 'transfer-first' waits for the EXCLUSIVE lock on 'accounts/b'");
			assertThat(first.get(30, TimeUnit.SECONDS)).as("the other call goes on").isEqualTo("posted b");
		});
	}

	@Test
	void shouldLetTheUnboundedCallGoOnWhenTheTimedCallOnTheCycleRunsOut() {
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			Postings postings = context.getBean(Postings.class);
			CountDownLatch timedHolds = new CountDownLatch(1);
			CountDownLatch unboundedHolds = new CountDownLatch(1);
			Future<String> timed = this.threads.submit(named("transfer-timed", () -> accounts.transfer("c", () -> {
				timedHolds.countDown();
				unboundedHolds.await();
				return postings.postWithin2s("d");
			})));
			assertThat(timedHolds.await(20, TimeUnit.SECONDS)).isTrue();
			Future<String> unbounded = this.threads.submit(named("transfer-unbounded", () -> accounts.transfer("d", () -> {
				unboundedHolds.countDown();
				awaitQueued(context, "accounts/d", 2);
				return postings.postWithoutLimit("c");
			})));
			assertThat(unbounded.get(30, TimeUnit.SECONDS)).as("the call without a limit").isEqualTo("posted c");
			assertThat(timed.get(30, TimeUnit.SECONDS)).as("the timed call")
				.startsWith("LockAcquisitionException: Could not acquire the EXCLUSIVE lock on 'accounts/d' within 2000 ms "
						+ "for Postings.postWithin2s(String): it waited for a deadlock in this process: thread "
						+ "'transfer-timed' waits for the EXCLUSIVE lock on 'accounts/d'")
				.contains("thread 'transfer-unbounded' waits for the EXCLUSIVE lock on 'accounts/c'");
		});
	}

	/** Runs {@code work} on a thread of that name; an acquire failure becomes its outcome. */
	private static Callable<String> named(String name, Callable<String> work) {
		return () -> {
			Thread.currentThread().setName(name);
			try {
				return work.call();
			}
			catch (LockAcquisitionException ex) {
				return ex.getClass().getSimpleName() + ": " + ex.getMessage();
			}
		};
	}

	private static void awaitQueued(ApplicationContext context, String lockPath, int count) {
		CuratorFramework client = context.getBean(CuratorFramework.class);
		Awaitility.await()
			.atMost(20, TimeUnit.SECONDS)
			.until(() -> client.checkExists().forPath("/locks/" + lockPath) != null
					&& client.getChildren().forPath("/locks/" + lockPath).size() == count);
	}

	static class Accounts {

		/** Holds the account's lock, without a wait limit, while {@code inside} runs. */
		@DistributedLock(path = "accounts", key = "#account", waitTime = "300000d")
		public String transfer(String account, Callable<String> inside) throws Exception {
			return inside.call();
		}

	}

	static class Postings {

		@DistributedLock(path = "accounts", key = "#account", waitTime = "300000d")
		public String postWithoutLimit(String account) {
			return "posted " + account;
		}

		@DistributedLock(path = "accounts", key = "#account", waitTime = "2s")
		public String postWithin2s(String account) {
			return "posted " + account;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TransferConfiguration {

		@Bean
		Accounts accounts() {
			return new Accounts();
		}

		@Bean
		Postings postings() {
			return new Postings();
		}

	}

}
