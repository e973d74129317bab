package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

import io.zklock.annotation.InvalidLockAnnotationException;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;

/**
 * How an annotated method's result completes, which decides when its lock is released.
 */
enum ReturnKind {

	/** Completes when the method returns. */
	SYNC,

	/** A {@link CompletionStage}: completes when the stage does. */
	COMPLETION_STAGE,

	/**
	 * A Reactor {@code Mono}, or a Kotlin {@code suspend} function: the lock is taken on
	 * subscription.
	 */
	MONO,

	/**
	 * A Reactor {@code Flux}, or a Kotlin {@code suspend} function that returns a {@code Flow}:
	 * the lock is taken on subscription.
	 */
	FLUX;

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReturnKind.class.getClassLoader());

	/** What Spring's AOP needs to run a Kotlin suspend function through advice (as a Mono). */
	private static final boolean COROUTINES_REACTOR_PRESENT = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
			ReturnKind.class.getClassLoader());

	private static final String FLOW = "kotlinx.coroutines.flow.Flow";

	/**
	 * How {@code method}'s result completes. A Kotlin {@code suspend} function is a
	 * {@link #MONO}, or a {@link #FLUX} if it returns a {@code Flow}: Spring's AOP runs its body
	 * as that publisher, and the caller's coroutine awaits it.
	 * @param description the method, for messages
	 * @throws InvalidLockAnnotationException for a suspend function without
	 * kotlinx-coroutines-reactor on the classpath, which Spring needs to run it through advice
	 */
	static ReturnKind of(Method method, String description) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			if (!REACTOR_PRESENT || !COROUTINES_REACTOR_PRESENT) {
				throw new InvalidLockAnnotationException(description, description
						+ " is a Kotlin suspend function, which Spring runs through advice only with Reactor and "
						+ "kotlinx-coroutines-reactor on the classpath.",
						"Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor to the application's dependencies.", null);
			}
			return FLOW.equals(new MethodParameter(method, -1).getParameterType().getName()) ? FLUX : MONO;
		}
		return of(method.getReturnType());
	}

	/**
	 * The result type of a Kotlin {@code suspend} function that cannot be {@code null}, where
	 * {@code onFailure = SKIP} cannot apply: a skipped call completes with {@code null} (an empty
	 * {@code Flow} for a {@code Flow}), which would reach the caller as a value of a non-null
	 * type.
	 * @return the JVM type's simple name, or {@code null} for any other method, and for a
	 * nullable result, {@code Unit} or {@code Flow}
	 */
	static @Nullable String nonNullSuspendResult(Method method) {
		if (!KotlinDetector.isSuspendingFunction(method)) {
			return null;
		}
		MethodParameter result = new MethodParameter(method, -1);
		Class<?> type = result.getParameterType();
		if (type == void.class || FLOW.equals(type.getName()) || result.isOptional()) {
			return null;
		}
		return type.getSimpleName();
	}

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
