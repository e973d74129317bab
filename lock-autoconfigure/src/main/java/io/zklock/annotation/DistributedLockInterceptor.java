package io.zklock.annotation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.lock.ILockByCurator;
import io.zklock.lock.LockAcquisitionException;
import io.zklock.lock.LockHandle;
import io.zklock.lock.PermitLease;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.SemaphoreByCurator;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;

/**
 * Runs a {@link DistributedLock} method under its lock: resolves the lock path, acquires
 * within the wait time, exposes the lock through {@link LockContext}, and releases it when
 * the method returns or throws. Runs a {@link DistributedSemaphore} method likewise while
 * holding one permit.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockDefinitionSource definitions;

	private final LockKeyResolver keyResolver;

	private final Supplier<ILockByCurator> locks;

	private final Supplier<SemaphoreByCurator> semaphores;

	private final Duration defaultWaitTime;

	DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyResolver keyResolver,
			Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores, Duration defaultWaitTime) {
		this.definitions = definitions;
		this.keyResolver = keyResolver;
		this.locks = locks;
		this.semaphores = semaphores;
		this.defaultWaitTime = defaultWaitTime;
	}

	@Override
	public Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		Method method = BridgeMethodResolver
			.findBridgedMethod(AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass));
		Optional<LockDefinition> found = this.definitions.find(method);
		if (found.isEmpty()) {
			return invocation.proceed();
		}
		LockDefinition definition = found.get();
		String lockPath = this.keyResolver.resolve(definition, method, invocation.getArguments(), target);
		Duration wait = (definition.waitTime() != null) ? definition.waitTime() : this.defaultWaitTime;
		if (definition.isSemaphore()) {
			return invokeWithPermit(invocation, definition, lockPath, wait);
		}
		LockHandle lock = this.locks.get()
			.tryAcquire(lockPath, definition.mode(), wait, definition.path())
			.orElseThrow(() -> new LockAcquisitionException(lockPath, "Could not acquire the " + definition.mode()
					+ " lock on '" + lockPath + "' within " + wait.toMillis() + " ms for "
					+ definition.methodDescription()));
		LockContext.push(lock);
		try {
			return invocation.proceed();
		}
		finally {
			LockContext.pop();
			ReleaseResult result = lock.release();
			if (result == ReleaseResult.LOST || result == ReleaseResult.CLEANUP_PENDING) {
				logger.warn("Releasing the " + lock.mode() + " lock on '" + lockPath + "' after "
						+ definition.methodDescription() + ": " + result);
			}
		}
	}

	private Object invokeWithPermit(MethodInvocation invocation, LockDefinition definition, String path,
			Duration wait) throws Throwable {
		PermitLease lease = this.semaphores.get()
			.tryAcquire(path, definition.permits(), wait)
			.orElseThrow(() -> new LockAcquisitionException(path, "Could not acquire one of " + definition.permits()
					+ " permits of semaphore '" + path + "' within " + wait.toMillis() + " ms for "
					+ definition.methodDescription()));
		try {
			return invocation.proceed();
		}
		finally {
			ReleaseResult result = lease.release();
			if (result == ReleaseResult.LOST || result == ReleaseResult.CLEANUP_PENDING) {
				logger.warn("Returning a permit of semaphore '" + path + "' after " + definition.methodDescription()
						+ ": " + result);
			}
		}
	}

}
