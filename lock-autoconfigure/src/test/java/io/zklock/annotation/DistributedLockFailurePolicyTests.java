package io.zklock.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.LockEngine;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@code onFailure}, several locks on one method (repeated annotations,
 * collection keys), and their validation at start-up.
 */
@Timeout(60)
class DistributedLockFailurePolicyTests extends ZkAnnotationTest {

	private final ApplicationContextRunner contextRunner = lockingContext().withPropertyValues("sample.wait=150ms")
		.withUserConfiguration(PolicyConfiguration.class);

	@Test
	void shouldSkipReturningNothingAsFitsTheReturnTypeWithoutRunningTheMethod() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			List<SkippedCall> skipped = context.getBean(SkippedCalls.class).calls;
			LockHandle busy = holdElsewhere(context, "busy");
			try {
				assertThat(jobs.text()).isNull();
				assertThat(jobs.optional()).isEmpty();
				assertThat(jobs.stage().get(5, TimeUnit.SECONDS)).isNull();
				StepVerifier.create(jobs.mono()).verifyComplete();
				jobs.nothing();
				assertThat(jobs.runs()).isZero();
			}
			finally {
				busy.release();
			}
			assertThat(skipped).hasSize(5).allSatisfy((call) -> {
				assertThat(call.lockName()).isEqualTo("busy");
				assertThat(call.lockPath()).isEqualTo("busy");
				assertThat(call.method()).startsWith("Jobs.");
			});
			assertThat(jobs.text()).isEqualTo("ran");
			assertThat(jobs.runs()).isOne();
		});
	}

	@Test
	void shouldLockEveryElementOfACollectionKeyInCanonicalOrder() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.items(List.of("b", "a", "b", "c"))).containsExactly("items/a", "items/b", "items/c");
			assertThat(jobs.items(new String[] { "z", "y" })).containsExactly("items/y", "items/z");
		});
	}

	@Test
	void shouldTakeSeveralLocksAllOrNothing() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			LockHandle busy = holdElsewhere(context, "items/b");
			try {
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> jobs.items(List.of("a", "b")))
					.withMessageContaining("the locks on ['items/a', 'items/b']")
					.withMessageContaining("within 150 ms");
				assertThat(client.getChildren().forPath("/locks/items/a")).isEmpty();
			}
			finally {
				busy.release();
			}
		});
	}

	@Test
	void shouldTakeRepeatedAndComposedAnnotationsInCanonicalOrder() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.repeated()).containsExactly("accounts/1:WRITE", "ledger:EXCLUSIVE");
			assertThat(jobs.composed("7")).containsExactly("ledger:EXCLUSIVE", "orders/7:EXCLUSIVE");
		});
	}

	@Test
	void shouldRefuseAnEmptyCollectionKeyNamingTheExpression() {
		this.contextRunner.run((context) -> assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> context.getBean(Jobs.class).items(List.of()))
			.withMessageContaining("'#ids'")
			.withMessageContaining("empty collection"));
	}

	@Test
	void shouldRefuseSkipOnAPrimitiveReturnTypeAtStartUp() {
		startWith(PrimitiveSkipConfiguration.class, "@DistributedLock on PrimitiveSkip.count() has onFailure = SKIP "
				+ "but returns int", "(Integer)");
	}

	@Test
	void shouldRefuseDisagreeingRepeatedAnnotationsAtStartUp() {
		startWith(DisagreeingConfiguration.class, "Disagreeing.work()", "disagree on onFailure");
	}

	private void startWith(Class<?> configuration, String... messages) {
		lockingContext()
			.withUserConfiguration(configuration)
			.run((context) -> {
				assertThat(context).hasFailed();
				for (String message : messages) {
					assertThat(context.getStartupFailure()).hasMessageContaining(message);
				}
			});
	}

	private static LockHandle holdElsewhere(ApplicationContext context, String path) throws Exception {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		return CompletableFuture.supplyAsync(() -> locks.acquire(path, LockMode.EXCLUSIVE)).get(10, TimeUnit.SECONDS);
	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@DistributedLock(path = "orders", key = "#id")
	@DistributedLock(path = "ledger")
	@interface OrderAndLedgerLock {

	}

	static class Jobs {

		private volatile int runs;

		@DistributedLock(path = "busy", waitTime = "${sample.wait}", onFailure = OnLockFailure.SKIP)
		public String text() {
			this.runs++;
			return "ran";
		}

		@DistributedLock(path = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public Optional<String> optional() {
			this.runs++;
			return Optional.of("ran");
		}

		@DistributedLock(path = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public CompletableFuture<String> stage() {
			this.runs++;
			return CompletableFuture.completedFuture("ran");
		}

		@DistributedLock(path = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public Mono<String> mono() {
			this.runs++;
			return Mono.just("ran");
		}

		@DistributedLock(path = "busy", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public void nothing() {
			this.runs++;
		}

		public int runs() {
			return this.runs;
		}

		@DistributedLock(path = "items", key = "#ids", waitTime = "${sample.wait}")
		public List<String> items(Object ids) {
			return LockContext.currentLocks().stream().map(LockHandle::lockPath).toList();
		}

		@DistributedLock(path = "ledger")
		@DistributedLock(path = "accounts", key = "1", mode = LockMode.WRITE)
		public List<String> repeated() {
			return LockContext.currentLocks().stream().map((lock) -> lock.lockPath() + ":" + lock.mode()).toList();
		}

		@OrderAndLedgerLock
		public List<String> composed(String id) {
			return LockContext.currentLocks().stream().map((lock) -> lock.lockPath() + ":" + lock.mode()).toList();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PolicyConfiguration {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		SkippedCalls skippedCalls() {
			return new SkippedCalls();
		}

	}

	static class SkippedCalls implements SkippedCallListener {

		final List<SkippedCall> calls = new CopyOnWriteArrayList<>();

		@Override
		public void onSkipped(SkippedCall call) {
			this.calls.add(call);
		}

	}

	static class PrimitiveSkip {

		@DistributedLock(path = "x", onFailure = OnLockFailure.SKIP)
		public int count() {
			return 1;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimitiveSkipConfiguration {

		@Bean
		PrimitiveSkip primitiveSkip() {
			return new PrimitiveSkip();
		}

	}

	static class Disagreeing {

		@DistributedLock(path = "x", onFailure = OnLockFailure.SKIP)
		@DistributedLock(path = "y")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DisagreeingConfiguration {

		@Bean
		Disagreeing disagreeing() {
			return new Disagreeing();
		}

	}

}
