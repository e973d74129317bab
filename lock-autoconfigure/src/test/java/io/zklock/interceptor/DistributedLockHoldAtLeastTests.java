package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.InvalidLockAnnotationException;
import io.zklock.annotation.LockContext;
import io.zklock.annotation.OnLockFailure;
import io.zklock.annotation.ZkAnnotationTest;
import io.zklock.fixtures.Sessions;
import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockHandle;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistributedLock#holdAtLeast()}: after the work of every call shape is done, the lock
 * is kept until its grant plus the hold, released in the background (never on the caller's
 * thread), and the caller's thread no longer holds it; the release still reports a loss; the
 * context's close releases the locks still waiting; invalid values fail start-up.
 */
@Timeout(90)
@Tag("slow")
class DistributedLockHoldAtLeastTests extends ZkAnnotationTest {

	private static final Duration HOLD = Duration.ofSeconds(2);

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(HoldConfiguration.class);

	@Test
	void shouldKeepASynchronousMethodsLockPastItsReturnAndReleaseItInTheBackground() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.quick()).isEqualTo("ran");
			assertHeldThenReleasedInBackground(context, "hold/quick");
		});
	}

	@Test
	void shouldKeepTheLockPastAThrow() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThatIllegalStateException().isThrownBy(jobs::failing).withMessage("boom");
			assertHeldThenReleasedInBackground(context, "hold/failing");
		});
	}

	@Test
	void shouldKeepAStagesLockPastItsCompletion() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			CompletableFuture<String> pending = new CompletableFuture<>();
			CompletionStage<String> stage = jobs.stage(pending);
			pending.complete("done");
			assertThat(stage.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("done");
			assertHeldThenReleasedInBackground(context, "hold/stage");
		});
	}

	@Test
	void shouldKeepAMonosLockPastItsCompletion() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			StepVerifier.create(jobs.mono()).expectNext("done").expectComplete().verify(Duration.ofSeconds(10));
			assertHeldThenReleasedInBackground(context, "hold/mono");
		});
	}

	@Test
	void shouldKeepAFluxsLockPastItsCancel() {
		this.contextRunner.withPropertyValues("zklock.hold-after-cancel=0").run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			StepVerifier.create(jobs.endless()).expectNext(0L).thenCancel().verify(Duration.ofSeconds(10));
			assertHeldThenReleasedInBackground(context, "hold/flux");
		});
	}

	@Test
	void shouldKeepTheLockPastTheTransactionTheMethodJoined() {
		this.contextRunner.withUserConfiguration(TransactionBeans.class).run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			Releases releases = context.getBean(Releases.class);
			new TransactionTemplate(context.getBean(DataSourceTransactionManager.class)).executeWithoutResult((tx) -> {
				jobs.quickInTransaction();
				TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public void afterCommit() {
						releases.note("committed");
					}
				});
			});
			assertThat(releases.notes()).containsExactly("committed");
			assertHeldThenReleasedInBackground(context, "hold/transaction");
		});
	}

	@Test
	void shouldReleaseAtTheTransactionsEndWhenItOutlastedTheHold() {
		this.contextRunner.withUserConfiguration(TransactionBeans.class).run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			Releases releases = context.getBean(Releases.class);
			new TransactionTemplate(context.getBean(DataSourceTransactionManager.class)).executeWithoutResult((tx) -> {
				jobs.briefInTransaction();
				TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public void afterCommit() {
						releases.note("committed");
					}
				});
				sleep(Duration.ofMillis(400)); // the rest of the transaction's work, longer than the hold
				assertThat(otherCanLock(context, "hold/brief")).as("held until the transaction completes").isFalse();
			});
			Release release = releases.of("hold/brief");
			assertThat(release.thread()).isEqualTo(Thread.currentThread().getName());
			assertThat(release.notesBefore()).containsExactly("committed");
		});
	}

	@Test
	void shouldReleaseAtOnceOnTheCallersThreadWhenTheWorkOutlastedTheHold() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			jobs.slow();
			Release release = context.getBean(Releases.class).of("hold/slow");
			assertThat(release.thread()).isEqualTo(Thread.currentThread().getName());
			assertThat(otherCanLock(context, "hold/slow")).isTrue();
		});
	}

	@Test
	void shouldNotKeepTheHoldReentrantForTheCallersThread() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			assertThat(jobs.quick()).isEqualTo("ran");
			assertThat(LockContext.currentLock()).isEmpty();
			assertThat(locks.isHeldByCurrentThread("hold/quick")).isFalse();
			assertThat(locks.heldLocks()).singleElement()
				.satisfies((held) -> assertThat(held.owner()).isEqualTo(io.zklock.lock.HoldOwner.CALL));
			assertThat(jobs.quick()).as("the same thread is skipped, it does not join the waiting hold").isNull();
			assertThat(jobs.runs()).isEqualTo(1);
			locks.acquireDistributedLock("hold/other");
			assertThat(locks.isHeldByCurrentThread("hold/other")).isTrue();
			locks.releaseDistributedLock("hold/other");
			await().atMost(Duration.ofSeconds(15)).until(() -> context.getBean(Releases.class).has("hold/quick"));
			assertThat(jobs.quick()).as("runs again after the hold").isEqualTo("ran");
			assertThat(jobs.runs()).isEqualTo(2);
		});
	}

	@Test
	void shouldLeaveTheCallersOuterHoldAloneAndKeepTheNodeAfterIt() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			ILockByCurator locks = context.getBean(ILockByCurator.class);
			locks.acquireDistributedLock("hold/quick");
			assertThat(jobs.quick()).as("joins the thread's own hold").isEqualTo("ran");
			assertThat(locks.isHeldByCurrentThread("hold/quick")).isTrue();
			assertThat(locks.releaseDistributedLock("hold/quick")).isEqualTo(ReleaseResult.STILL_HELD);
			assertThat(locks.isHeldByCurrentThread("hold/quick")).isFalse();
			assertHeldThenReleasedInBackground(context, "hold/quick");
		});
	}

	@Test
	void shouldReleaseTheWaitingLocksWhenTheContextCloses() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			Releases releases = context.getBean(Releases.class);
			Set<Thread> before = releaseThreads();
			jobs.longHold();
			assertThat(otherCanLock(context, "hold/long")).isFalse();
			Set<Thread> started = releaseThreads();
			started.removeAll(before);
			assertThat(started).as("the release thread of this context").hasSize(1);
			assertThat(context.getBean(LockReleaseScheduler.class).pendingCount()).isEqualTo(1);

			String closing = Thread.currentThread().getName();
			context.close();

			Release release = releases.of("hold/long");
			assertThat(release.thread()).isEqualTo(closing);
			assertThat(release.result()).isEqualTo(ReleaseResult.RELEASED);
			assertThat(release.heldFor()).isLessThan(Duration.ofMinutes(1));
			await().atMost(Duration.ofSeconds(10)).until(() -> started.stream().noneMatch(Thread::isAlive));
		});
		lockingContext().withUserConfiguration(HoldConfiguration.class)
			.run((context) -> assertThat(otherCanLock(context, "hold/long")).isTrue());
	}

	@Test
	void shouldReportALockLostInsideTheHoldAndLetItGo() {
		lockingContext().withUserConfiguration(HoldConfiguration.class)
			.withPropertyValues("zklock.zookeeper.session-timeout=4s", "zklock.zookeeper.connection-timeout=1s")
			.run((context) -> {
				Jobs jobs = context.getBean(Jobs.class);
				Releases releases = context.getBean(Releases.class);
				jobs.lostInsideHold();
				Sessions.expire(context.getBean(CuratorFramework.class), server.getConnectString());
				await().atMost(Duration.ofSeconds(15)).until(() -> releases.lost().contains("hold/lost"));
				this.contextRunner.run((elsewhere) -> {
					ILockByCurator locks = elsewhere.getBean(ILockByCurator.class);
					Optional<LockHandle> taken = locks.tryAcquire("hold/lost", LockMode.EXCLUSIVE, Duration.ofSeconds(10));
					assertThat(taken).as("the session ended inside the hold: the lock went with it").isPresent();
					taken.get().release();
				});
				Release release = releases.of("hold/lost");
				assertThat(release.result()).isEqualTo(ReleaseResult.LOST);
				assertThat(release.thread()).startsWith("zklock-release-");
				assertThat(release.heldFor()).isGreaterThanOrEqualTo(Duration.ofSeconds(10));
			});
	}

	@Test
	void shouldResolveAPlaceholderAndTakeTheLongestOfSeveralLocks() throws Exception {
		Method several = Jobs.class.getMethod("severalLocks");
		this.contextRunner.run((context) -> {
			LockDefinitionSource source = new LockDefinitionSource("/locks",
					context.getEnvironment()::resolveRequiredPlaceholders);
			assertThat(((LockDefinition) source.find(several).orElseThrow()).holdAtLeast())
				.as("the placeholder's default, 500ms, is shorter than another lock's 1s")
				.isEqualTo(Duration.ofSeconds(1));
			assertThat(((LockDefinition) source.find(Jobs.class.getMethod("slow")).orElseThrow()).holdAtLeast())
				.isEqualTo(Duration.ofMillis(100));
		});
		this.contextRunner.withPropertyValues("test.hold=1500ms").run((context) -> {
			LockDefinitionSource source = new LockDefinitionSource("/locks",
					context.getEnvironment()::resolveRequiredPlaceholders);
			assertThat(((LockDefinition) source.find(several).orElseThrow()).holdAtLeast())
				.isEqualTo(Duration.ofMillis(1500));
		});
	}

	@Test
	void shouldFailStartUpForAnUnparsableHold() {
		lockingContext().withUserConfiguration(UnparsableHoldConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("UnparsableHold.work()")
				.hasMessageContaining("invalid holdAtLeast 'soon'");
		});
	}

	@Test
	void shouldFailStartUpForANegativeHoldFromAPlaceholder() {
		lockingContext().withUserConfiguration(PlaceholderHoldConfiguration.class)
			.withPropertyValues("job.hold=-5s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("PlaceholderHold.work()")
					.hasMessageContaining("negative holdAtLeast '${job.hold}' (resolved to '-5s')");
				// described with its fix by zklock's failure analyzer
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidLockAnnotationException.class)
					.hasMessageContaining("Use a positive duration such as '30s'");
			});
	}

	@Test
	void shouldFailStartUpForAnUnresolvablePlaceholder() {
		lockingContext().withUserConfiguration(PlaceholderHoldConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("PlaceholderHold.work()")
				.hasMessageContaining("holdAtLeast '${job.hold}' whose placeholder cannot be resolved");
		});
	}

	/**
	 * Right after the work: the lock is still held; then it is released on the release thread,
	 * no earlier than the hold after the grant.
	 */
	private static void assertHeldThenReleasedInBackground(ApplicationContext context, String path) {
		assertThat(otherCanLock(context, path)).as("still held after the work, inside the hold").isFalse();
		Release release = context.getBean(Releases.class).of(path);
		assertThat(release.thread()).startsWith("zklock-release-");
		assertThat(release.heldFor()).isGreaterThanOrEqualTo(HOLD);
		assertThat(release.result()).isEqualTo(ReleaseResult.RELEASED);
		assertThat(otherCanLock(context, path)).isTrue();
	}

	/** Whether another thread of the application can take the lock now (and gives it back). */
	private static boolean otherCanLock(ApplicationContext context, String path) {
		ILockByCurator locks = context.getBean(ILockByCurator.class);
		return CompletableFuture.supplyAsync(() -> locks.tryAcquire(path, LockMode.EXCLUSIVE, Duration.ZERO)
			.map((lock) -> {
				lock.release();
				return true;
			})
			.orElse(false)).orTimeout(10, TimeUnit.SECONDS).join();
	}

	private static Set<Thread> releaseThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("zklock-release-"))
			.collect(Collectors.toSet());
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static class Jobs {

		private final AtomicInteger runs = new AtomicInteger();

		@DistributedLock(path = "hold/quick", holdAtLeast = "2s", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public String quick() {
			this.runs.incrementAndGet();
			return "ran";
		}

		public int runs() {
			return this.runs.get();
		}

		@DistributedLock(path = "hold/failing", holdAtLeast = "2s")
		public void failing() {
			throw new IllegalStateException("boom");
		}

		@DistributedLock(path = "hold/stage", holdAtLeast = "2s")
		public CompletionStage<String> stage(CompletableFuture<String> pending) {
			return pending;
		}

		@DistributedLock(path = "hold/mono", holdAtLeast = "2s")
		public Mono<String> mono() {
			return Mono.just("done");
		}

		@DistributedLock(path = "hold/flux", holdAtLeast = "2s")
		public Flux<Long> endless() {
			return Flux.interval(Duration.ofMillis(10));
		}

		@DistributedLock(path = "hold/transaction", holdAtLeast = "2s")
		public void quickInTransaction() {
		}

		@DistributedLock(path = "hold/brief", holdAtLeast = "100ms")
		public void briefInTransaction() {
		}

		@DistributedLock(path = "hold/slow", holdAtLeast = "100ms")
		public void slow() {
			sleep(Duration.ofMillis(300)); // work that outlasts the hold
		}

		@DistributedLock(path = "hold/long", holdAtLeast = "1m")
		public void longHold() {
		}

		@DistributedLock(path = "hold/lost", holdAtLeast = "10s")
		public void lostInsideHold() {
		}

		@DistributedLock(path = "hold/several-a", holdAtLeast = "${test.hold:500ms}")
		@DistributedLock(path = "hold/several-b", holdAtLeast = "1s")
		@DistributedLock(path = "hold/several-c")
		public void severalLocks() {
		}

	}

	/** One release seen by the lock listener. */
	record Release(String path, String thread, Duration heldFor, ReleaseResult result, List<String> notesBefore) {
	}

	/** Records releases and losses, and notes of the test, in order. */
	static class Releases implements LockListener {

		private final List<Release> releases = new CopyOnWriteArrayList<>();

		private final List<String> lost = new CopyOnWriteArrayList<>();

		private final List<String> notes = new CopyOnWriteArrayList<>();

		@Override
		public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
			this.releases.add(new Release(lock.lockPath(), Thread.currentThread().getName(), heldFor, result,
					List.copyOf(this.notes)));
		}

		@Override
		public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
			this.lost.add(lock.lockPath());
		}

		void note(String note) {
			this.notes.add(note);
		}

		List<String> notes() {
			return List.copyOf(this.notes);
		}

		List<String> lost() {
			return List.copyOf(this.lost);
		}

		boolean has(String path) {
			return this.releases.stream().anyMatch((release) -> release.path().equals(path));
		}

		/** The first release of {@code path}, waited for. */
		Release of(String path) {
			await().atMost(Duration.ofSeconds(20)).until(() -> has(path));
			return this.releases.stream().filter((release) -> release.path().equals(path)).findFirst().orElseThrow();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HoldConfiguration {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		Releases releases() {
			return new Releases();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TransactionBeans {

		@Bean
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

	}

	static class UnparsableHold {

		@DistributedLock(path = "hold/bad", holdAtLeast = "soon")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnparsableHoldConfiguration {

		@Bean
		UnparsableHold unparsableHold() {
			return new UnparsableHold();
		}

	}

	static class PlaceholderHold {

		@DistributedLock(path = "hold/placeholder", holdAtLeast = "${job.hold}")
		public void work() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlaceholderHoldConfiguration {

		@Bean
		PlaceholderHold placeholderHold() {
			return new PlaceholderHold();
		}

	}

}
