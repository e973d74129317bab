package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.zklock.annotation.LeaderContext;
import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.leadership.Term;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link LeaderOnly} at run time: a method runs only on the instance whose term of the role is
 * active, with the term in {@link LeaderContext}, and is skipped elsewhere with the empty value of
 * its return type, told to {@link SkippedCallListener}s.
 */
@Timeout(60)
class LeaderOnlyTests extends LeadershipTest {

	@Test
	void shouldRunOnTheLeaderOnlyAndSkipOnTheFollower() {
		instance("a").withUserConfiguration(CloserConfiguration.class).run((a) -> {
			Term term = awaitTerm(a, "billing-close");
			instance("b").withUserConfiguration(CloserConfiguration.class).run((b) -> {
				Closer onLeader = a.getBean(Closer.class);
				Closer onFollower = b.getBean(Closer.class);
				assertThat(leads(b, "billing-close")).isFalse();
				assertThat(onLeader.closeTheDay()).as("the leader runs it, with its term's token").contains(term.fencingToken());
				assertThat(onFollower.closeTheDay()).as("the follower skips it").isEmpty();
				assertThat(b.getBean(Skips.class).calls).singleElement().satisfies((skipped) -> {
					assertThat(skipped.reason()).isEqualTo(SkippedCall.Reason.NOT_LEADER);
					assertThat(skipped.lockPath()).isEqualTo("billing-close");
					assertThat(skipped.lockName()).isEqualTo("billing-close");
					assertThat(skipped.mode()).isNull();
					assertThat(skipped.waited()).isZero();
					assertThat(skipped.method()).isEqualTo("Closer.closeTheDay()");
				});
				assertThat(a.getBean(Skips.class).calls).isEmpty();
				assertThat(onLeader.ran()).containsExactly(term.fencingToken());
				assertThat(onFollower.ran()).isEmpty();
			});
		});
	}

	@Test
	void shouldReturnTheEmptyValueOfEachReturnTypeWhenSkipped() throws Exception {
		try (CuratorFramework other = otherClient()) {
			InterProcessMutex elsewhere = new InterProcessMutex(other, "/leaders/billing-close");
			elsewhere.acquire();
			instance("a").withUserConfiguration(CloserConfiguration.class).run((context) -> {
				Closer closer = context.getBean(Closer.class);
				assertThat(closer.closeTheDay()).isEmpty();
				assertThat(closer.report()).isNull();
				closer.touch();
				assertThat(closer.later()).isCompletedWithValue(null);
				assertThat(closer.single().blockOptional()).isEmpty();
				assertThat(closer.many().collectList().block()).isEmpty();
				assertThat(closer.ran()).isEmpty();
				assertThat(context.getBean(Skips.class).calls).hasSize(6);
			});
		}
	}

	@Test
	void shouldRunEachReturnTypeUnderTheTermOnceGranted() throws Exception {
		try (CuratorFramework other = otherClient()) {
			InterProcessMutex elsewhere = new InterProcessMutex(other, "/leaders/billing-close");
			elsewhere.acquire();
			instance("a").withUserConfiguration(CloserConfiguration.class).run((context) -> {
				Closer closer = context.getBean(Closer.class);
				Mono<Long> single = closer.single();
				assertThat(closer.closeTheDay()).isEmpty();
				elsewhere.release();
				Term term = awaitTerm(context, "billing-close");
				long token = term.fencingToken();
				assertThat(closer.closeTheDay()).contains(token);
				assertThat(closer.report()).isEqualTo("closed under " + token);
				assertThat(closer.later()).isCompletedWithValue(token);
				assertThat(single.block()).as("a Mono made before the grant checks when subscribed").isEqualTo(token);
				assertThat(closer.many().collectList().block()).containsExactly(token, token);
			});
		}
	}

	@Test
	void shouldSayThatNoLeaderOnlyCallRunsOutsideOne() {
		assertThat(LeaderContext.currentTerm()).isEmpty();
		assertThatIllegalStateException().isThrownBy(LeaderContext::currentToken)
			.withMessage("No @LeaderOnly call is running on thread '" + Thread.currentThread().getName()
					+ "'; LeaderContext is only set inside a method annotated with @LeaderOnly while this instance "
					+ "leads its role (with zklock.enabled=false such methods run without a term)");
	}

	@Test
	void shouldRunOnEveryInstanceWithoutATermWhenZkLockIsDisabled() {
		instance("a").withUserConfiguration(CloserConfiguration.class)
			.withPropertyValues("zklock.enabled=false")
			.run((context) -> {
				Closer closer = context.getBean(Closer.class);
				assertThat(closer.report()).isEqualTo("closed without a term");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class CloserConfiguration {

		@Bean
		Closer closer() {
			return new Closer();
		}

		@Bean
		Skips skips() {
			return new Skips();
		}

	}

	static class Skips implements SkippedCallListener {

		final List<SkippedCall> calls = new CopyOnWriteArrayList<>();

		@Override
		public void onSkipped(SkippedCall call) {
			this.calls.add(call);
		}

	}

	static class Closer {

		private final List<Long> ran = new CopyOnWriteArrayList<>();

		/** The tokens it ran under (a method: the bean is a class-based proxy, whose own fields are empty). */
		public List<Long> ran() {
			return List.copyOf(this.ran);
		}

		@LeaderOnly("billing-close")
		public Optional<Long> closeTheDay() {
			long token = LeaderContext.currentToken();
			this.ran.add(token);
			return Optional.of(token);
		}

		@LeaderOnly("billing-close")
		public String report() {
			return LeaderContext.currentTerm().map((term) -> "closed under " + term.fencingToken())
				.orElse("closed without a term");
		}

		@LeaderOnly("billing-close")
		public void touch() {
			this.ran.add(LeaderContext.currentToken());
		}

		@LeaderOnly("billing-close")
		public CompletableFuture<Long> later() {
			return CompletableFuture.completedFuture(LeaderContext.currentToken());
		}

		@LeaderOnly("billing-close")
		public Mono<Long> single() {
			return Mono.just(LeaderContext.currentToken());
		}

		@LeaderOnly("billing-close")
		public Flux<Long> many() {
			long token = LeaderContext.currentToken();
			return Flux.just(token, token);
		}

	}

}
