package io.zklock.annotation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import io.zklock.lock.LockHandle;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ReactiveLockContext}: the lock of a {@code Mono}/{@code Flux} method is in the Reactor
 * {@code Context} of the publisher it returns, per subscription, for operators after the
 * body's first one, inside its {@code flatMap}s and on other schedulers; nested annotated calls
 * stack; nothing outside a call.
 */
@Timeout(60)
@Tag("slow")
class ReactiveLockContextTests extends ZkAnnotationTest {

	private static final Duration VERIFY = Duration.ofSeconds(15);

	private final ApplicationContextRunner contextRunner = lockingContext()
		.withUserConfiguration(ReactiveConfiguration.class);

	@Test
	void shouldWriteTheLockIntoTheReactorContextUnderTheKey() {
		this.contextRunner.run((context) -> {
			Grants grants = context.getBean(Grants.class);
			StepVerifier.create(context.getBean(Outer.class).rawContext())
				.assertNext((locks) -> assertThat(locks)
					.containsExactly("context/raw token " + grants.tokenOf("context/raw") + " held true"))
				.expectComplete()
				.verify(VERIFY);
		});
	}

	@Test
	void shouldGiveTheTokenDownstreamOfTheBodyInsideFlatMapsOnOtherSchedulers() {
		this.contextRunner.run((context) -> {
			Grants grants = context.getBean(Grants.class);
			StepVerifier.create(context.getBean(Outer.class).tokenAcrossSchedulers())
				.assertNext((seen) -> {
					assertThat(seen.tokens()).hasSize(3).containsOnly(grants.tokenOf("context/schedulers"));
					assertThat(seen.threads()).anySatisfy((thread) -> assertThat(thread).startsWith("parallel-"))
						.anySatisfy((thread) -> assertThat(thread).startsWith("boundedElastic-"));
				})
				.expectComplete()
				.verify(VERIFY);
		});
	}

	@Test
	void shouldGiveEveryElementOfAFluxTheSameLock() {
		this.contextRunner.run((context) -> {
			Grants grants = context.getBean(Grants.class);
			StepVerifier.create(context.getBean(Outer.class).tokenPerElement().collectList())
				.assertNext((tokens) -> assertThat(tokens).hasSize(3).containsOnly(grants.tokenOf("context/flux")))
				.expectComplete()
				.verify(VERIFY);
		});
	}

	@Test
	void shouldTakeANewLockForEachSubscription() {
		this.contextRunner.run((context) -> {
			Mono<Long> token = context.getBean(Outer.class).token();
			Long first = token.block(VERIFY);
			Long second = token.block(VERIFY);
			assertThat(second).isGreaterThan(first);
			assertThat(context.getBean(Grants.class).tokens("context/token")).containsExactly(first, second);
		});
	}

	@Test
	void shouldStackNestedAnnotatedReactiveCallsInnermostLast() {
		this.contextRunner.run((context) -> {
			Grants grants = context.getBean(Grants.class);
			StepVerifier.create(context.getBean(Outer.class).nested())
				.assertNext((seen) -> {
					assertThat(seen.get("inner locks")).containsExactly("context/outer", "context/inner");
					assertThat(seen.get("inner current")).containsExactly("context/inner");
					assertThat(seen.get("inner token"))
						.containsExactly(String.valueOf(grants.tokenOf("context/inner")));
					assertThat(seen.get("outer after inner")).containsExactly("context/outer");
				})
				.expectComplete()
				.verify(VERIFY);
		});
	}

	@Test
	void shouldGiveSeveralLocksOfOneMethodInTheOrderTaken() {
		this.contextRunner.run((context) -> {
			StepVerifier.create(context.getBean(Outer.class).twoLocks())
				.assertNext((paths) -> assertThat(paths).containsExactly("context/two-a", "context/two-b"))
				.expectComplete()
				.verify(VERIFY);
		});
	}

	@Test
	void shouldBeEmptyOutsideAnAnnotatedCall() {
		this.contextRunner.run((context) -> {
			StepVerifier.create(ReactiveLockContext.currentLock()).expectComplete().verify(VERIFY);
			StepVerifier.create(ReactiveLockContext.currentLocks()).expectNext(List.of()).expectComplete().verify(VERIFY);
			StepVerifier.create(ReactiveLockContext.currentToken())
				.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(IllegalStateException.class)
					.hasMessageContaining("@DistributedLock"))
				.verify(VERIFY);
			StepVerifier.create(context.getBean(Outer.class).token().then(ReactiveLockContext.currentLock()))
				.as("operators the caller adds after the method's publisher are outside the call")
				.expectComplete()
				.verify(VERIFY);
		});
	}

	@Test
	void shouldLeaveASemaphoresPipelineWithoutLocks() {
		this.contextRunner.run((context) -> StepVerifier.create(context.getBean(Outer.class).underSemaphore())
			.expectNext(List.of())
			.expectComplete()
			.verify(VERIFY));
	}

	/** What {@link Outer#tokenAcrossSchedulers()} saw. */
	record Seen(List<Long> tokens, List<String> threads) {
	}

	static class Outer {

		private final Inner inner;

		Outer(Inner inner) {
			this.inner = inner;
		}

		@DistributedLock(path = "context/raw")
		public Mono<List<String>> rawContext() {
			return Mono.deferContextual((context) -> {
				List<LockHandle> locks = context.get(ReactiveLockContext.KEY);
				return Mono.just(locks.stream()
					.map((lock) -> lock.lockPath() + " token " + lock.fencingToken() + " held " + lock.isHeld())
					.toList());
			});
		}

		@DistributedLock(path = "context/schedulers")
		public Mono<Seen> tokenAcrossSchedulers() {
			List<Long> tokens = new CopyOnWriteArrayList<>();
			List<String> threads = new CopyOnWriteArrayList<>();
			return Mono.delay(Duration.ofMillis(5))
				.publishOn(Schedulers.parallel())
				.flatMap((tick) -> ReactiveLockContext.currentToken())
				.doOnNext((token) -> record(tokens, threads, token))
				.flatMap((first) -> ReactiveLockContext.currentToken().subscribeOn(Schedulers.boundedElastic()))
				.doOnNext((token) -> record(tokens, threads, token))
				.flatMap((second) -> Mono.fromCallable(() -> 0)
					.subscribeOn(Schedulers.parallel())
					.flatMap((unused) -> ReactiveLockContext.currentToken())
					.doOnNext((token) -> record(tokens, threads, token)))
				.map((third) -> new Seen(List.copyOf(tokens), List.copyOf(threads)));
		}

		private static void record(List<Long> tokens, List<String> threads, long token) {
			tokens.add(token);
			threads.add(Thread.currentThread().getName());
		}

		@DistributedLock(path = "context/flux")
		public Flux<Long> tokenPerElement() {
			return Flux.range(1, 3)
				.concatMap((i) -> ReactiveLockContext.currentToken().delayElement(Duration.ofMillis(5)));
		}

		@DistributedLock(path = "context/token")
		public Mono<Long> token() {
			return ReactiveLockContext.currentToken();
		}

		@DistributedLock(path = "context/outer")
		public Mono<Map<String, List<String>>> nested() {
			return this.inner.inner()
				.flatMap((seen) -> ReactiveLockContext.currentLocks().map((locks) -> {
					Map<String, List<String>> all = new ConcurrentHashMap<>(seen);
					all.put("outer after inner", paths(locks));
					return all;
				}));
		}

		@DistributedLock(path = "context/two-b")
		@DistributedLock(path = "context/two-a")
		public Mono<List<String>> twoLocks() {
			return ReactiveLockContext.currentLocks().map(Outer::paths);
		}

		@DistributedSemaphore(path = "context/semaphore", permits = 2)
		public Mono<List<LockHandle>> underSemaphore() {
			return ReactiveLockContext.currentLocks();
		}

		static List<String> paths(List<LockHandle> locks) {
			return locks.stream().map(LockHandle::lockPath).toList();
		}

	}

	static class Inner {

		@DistributedLock(path = "context/inner")
		public Mono<Map<String, List<String>>> inner() {
			return Mono.zip(ReactiveLockContext.currentLocks().publishOn(Schedulers.parallel()),
					ReactiveLockContext.currentLock(), ReactiveLockContext.currentToken())
				.map((seen) -> Map.of("inner locks", Outer.paths(seen.getT1()), "inner current",
						List.of(seen.getT2().lockPath()), "inner token", List.of(String.valueOf(seen.getT3()))));
		}

	}

	/** The fencing tokens granted per lock path, in order. */
	static class Grants implements LockListener {

		private final Map<String, List<Long>> tokens = new ConcurrentHashMap<>();

		@Override
		public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
			this.tokens.computeIfAbsent(lock.lockPath(), (path) -> new CopyOnWriteArrayList<>()).add(fencingToken);
		}

		List<Long> tokens(String path) {
			return List.copyOf(this.tokens.getOrDefault(path, List.of()));
		}

		long tokenOf(String path) {
			List<Long> granted = tokens(path);
			assertThat(granted).as("one grant of '%s'", path).hasSize(1);
			return granted.get(0);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReactiveConfiguration {

		@Bean
		Inner inner() {
			return new Inner();
		}

		@Bean
		Outer outer(Inner inner) {
			return new Outer(inner);
		}

		@Bean
		Grants grants() {
			return new Grants();
		}

	}

}
