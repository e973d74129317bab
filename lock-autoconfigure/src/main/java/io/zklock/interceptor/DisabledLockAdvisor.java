package io.zklock.interceptor;

import java.lang.reflect.Method;

import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedLocks;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.support.LockContextHolder;
import io.zklock.annotation.support.ReactiveLockContextHolder;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The advisor of {@link DistributedLock} and {@link DistributedSemaphore} methods while zklock
 * is disabled ({@code zklock.enabled=false}): it runs them without locks, and marks each call
 * as one, so that {@link io.zklock.annotation.LockContext#currentToken()} (on the calling thread) and
 * {@link io.zklock.annotation.ReactiveLockContext#currentToken()} (in the {@code Mono} or {@code Flux} it returns,
 * and in a Kotlin {@code suspend} function) say that zklock is disabled instead of that no
 * annotated call is running; {@code currentLock()} is empty. Needs no Curator class, so it
 * works when Curator is not on the class path. Thread-safe.
 */
public final class DisabledLockAdvisor extends AbstractPointcutAdvisor {

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			DisabledLockAdvisor.class.getClassLoader());

	private final Pointcut pointcut = new StaticMethodMatcherPointcut() {

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			Method specific = SpecificMethods.of(method, targetClass);
			return AnnotatedElementUtils.hasAnnotation(specific, DistributedLock.class)
					|| AnnotatedElementUtils.hasAnnotation(specific, DistributedLocks.class)
					|| AnnotatedElementUtils.hasAnnotation(specific, DistributedSemaphore.class);
		}

	};

	private final MethodInterceptor interceptor = DisabledLockAdvisor::invoke;

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

	private static @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		String method = LockedMethods.describe(SpecificMethods.of(invocation));
		Object result;
		LockContextHolder.enterUnlocked(method);
		try {
			result = invocation.proceed();
		}
		finally {
			LockContextHolder.exitUnlocked();
		}
		return REACTOR_PRESENT ? Reactive.markUnlocked(result, method) : result;
	}

	/** The Reactor part, loaded only with Reactor on the class path. */
	private static final class Reactive {

		static @Nullable Object markUnlocked(@Nullable Object result, String method) {
			if (result instanceof Mono<?> mono) {
				return mono.contextWrite((context) -> ReactiveLockContextHolder.withUnlocked(context, method));
			}
			if (result instanceof Flux<?> flux) {
				return flux.contextWrite((context) -> ReactiveLockContextHolder.withUnlocked(context, method));
			}
			return result;
		}

	}

}
