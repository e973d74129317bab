package io.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Consumer;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.DistributedSemaphore;
import io.zklock.annotation.SkippedCall;
import io.zklock.lock.HoldOwner;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.KotlinDetector;

/**
 * Runs {@link DistributedLock} and {@link DistributedSemaphore} methods under their locks,
 * with the hold owner and release point each call shape needs (see {@link HoldOwner}):
 * <ul>
 * <li>a method that returns a plain value: thread-owned locks, released when it returns or
 * throws, or after a transaction it joined completes ({@link SynchronousInvocation});</li>
 * <li>a {@code CompletionStage}: call-owned locks, released when the stage completes, before
 * the caller sees it complete ({@link StageInvocation});</li>
 * <li>a Reactor {@code Mono} or {@code Flux}: call-owned locks per subscription, released on
 * complete, error or cancel ({@link ReactorSupport});</li>
 * <li>a Kotlin {@code suspend} function: the same as a {@code Mono} (a {@code Flux} if it
 * returns a {@code Flow}), since Spring's AOP hands the advice the function's body as a
 * {@code Mono} (started with the caller's coroutine context) and the caller's coroutine
 * awaits the publisher the advice returns; the locks are held until the coroutine completes,
 * also when the caller is cancelled: the function's coroutine is then cancelled through its
 * {@code Job} ({@link CoroutineJobs}) and the locks go when it has ended.</li>
 * </ul>
 * A call-owned hold never joins another hold, so two pending calls never run under one
 * exclusive lock, whatever threads they share.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private final LockDefinitionSource definitions;

	private final LockKeyResolver keyResolver;

	private final LockAcquirer acquirer;

	private final AnnotationSettings settings;

	private final Consumer<SkippedCall> skipped;

	DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyResolver keyResolver, LockAcquirer acquirer,
			AnnotationSettings settings, Consumer<SkippedCall> skipped) {
		this.definitions = definitions;
		this.keyResolver = keyResolver;
		this.acquirer = acquirer;
		this.settings = settings;
		this.skipped = skipped;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Method method = SpecificMethods.of(invocation);
		Optional<GuardDefinition> found = this.definitions.find(method);
		if (found.isEmpty()) {
			return invocation.proceed();
		}
		GuardDefinition definition = found.get();
		CallLocks call = CallLocks.resolve(definition, method, invocation.getArguments(), target, this.keyResolver,
				this.settings.defaultWaitTime());
		Object skippedResult = ReturnKind.skippedValue(method.getReturnType());
		return switch (definition.returnKind()) {
			case MONO, FLUX -> {
				ProxyMethodInvocation deferred = (ProxyMethodInvocation) ((ProxyMethodInvocation) invocation)
					.invocableClone();
				boolean coroutine = definition.returnKind() == ReturnKind.MONO
						&& KotlinDetector.isSuspendingFunction(method);
				yield ReactorSupport.around(definition.returnKind(), () -> this.acquirer.newCall(definition),
						(held) -> call.acquire(held, this.acquirer, HoldOwner.CALL, this.skipped),
						(held) -> proceed(deferred, coroutine ? held : null), this.settings.onLockLost(),
						definition.methodDescription());
			}
			case COMPLETION_STAGE -> StageInvocation.invoke(invocation, call, this.acquirer, this.settings, this.skipped,
					skippedResult);
			case SYNC -> SynchronousInvocation.invoke(invocation, call, this.acquirer, this.settings, this.skipped,
					skippedResult);
		};
	}

	/**
	 * Runs the method of one subscription, on a copy of the call of its own; a suspend
	 * function's coroutine is made reachable by its call ({@link CoroutineJobs}).
	 */
	private static @Nullable Object proceed(ProxyMethodInvocation deferred, @Nullable LockedCall stopper)
			throws Throwable {
		ProxyMethodInvocation subscription = (ProxyMethodInvocation) deferred.invocableClone();
		if (stopper != null) {
			CoroutineJobs.reachWith(subscription, stopper);
		}
		return subscription.proceed();
	}

}
