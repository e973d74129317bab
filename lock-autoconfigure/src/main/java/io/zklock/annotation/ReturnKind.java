package io.zklock.annotation;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * How an annotated method's result completes, which decides when its lock is released.
 */
enum ReturnKind {

	/** Completes when the method returns. */
	SYNC,

	/** A {@link CompletionStage}: completes when the stage does. */
	COMPLETION_STAGE,

	/** A Reactor {@code Mono}: the lock is taken on subscription. */
	MONO,

	/** A Reactor {@code Flux}: the lock is taken on subscription. */
	FLUX;

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReturnKind.class.getClassLoader());

	static ReturnKind of(Class<?> returnType) {
		if (CompletionStage.class.isAssignableFrom(returnType)) {
			return COMPLETION_STAGE;
		}
		if (REACTOR_PRESENT) {
			if (ReactorSupport.isMono(returnType)) {
				return MONO;
			}
			if (ReactorSupport.isFlux(returnType)) {
				return FLUX;
			}
		}
		return SYNC;
	}

	/** The value a skipped call returns for a method of {@code returnType}. */
	static @Nullable Object skippedValue(Class<?> returnType) {
		if (returnType == Optional.class) {
			return Optional.empty();
		}
		if (CompletionStage.class.isAssignableFrom(returnType)) {
			return CompletableFuture.completedFuture(null);
		}
		return null;
	}

}
