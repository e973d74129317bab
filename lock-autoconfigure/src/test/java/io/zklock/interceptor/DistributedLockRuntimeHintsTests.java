package io.zklock.interceptor;

import org.junit.jupiter.api.Test;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedLocks;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.LeaderOnly;
import io.zklock.annotation.LeaderScoped;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.lock.event.LockListener;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockRuntimeHints}.
 */
class DistributedLockRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	DistributedLockRuntimeHintsTests() {
		new DistributedLockRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void shouldBeRegisteredInAotFactories() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(DistributedLockRuntimeHints.class);
	}

	@Test
	void shouldRegisterTheAnnotationsAndTheirSynthesizedProxies() {
		for (Class<?> annotation : new Class<?>[] { DistributedLock.class, DistributedLocks.class,
				DistributedSemaphore.class, LeaderOnly.class, LeaderScoped.class }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(annotation)
				.withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS)).accepts(this.hints);
			assertThat(RuntimeHintsPredicates.proxies().forInterfaces(annotation)).accepts(this.hints);
		}
	}

	@Test
	void shouldRegisterTheGettersOfTheKeyExpressionRootObject() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockKeyResolver.RootObject.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(this.hints);
		// the invocation of each getter: DistributedLockMethodHintsTests
	}

	@Test
	void shouldRegisterListenerTypesAndOptionalTypesLookedUpByName() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockListener.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(SkippedCallListener.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(SkippedCall.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of("reactor.core.publisher.Mono")))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("org.springframework.transaction.support.TransactionSynchronizationManager")))
			.accepts(this.hints);
	}

}
