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
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;
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

	private final OnLockLost onLockLost;

	DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyResolver keyResolver,
			Supplier<ILockByCurator> locks, Supplier<SemaphoreByCurator> semaphores, Duration defaultWaitTime,
			OnLockLost onLockLost) {
		this.definitions = definitions;
		this.keyResolver = keyResolver;
		this.locks = locks;
		this.semaphores = semaphores;
		this.defaultWaitTime = defaultWaitTime;
		this.onLockLost = onLockLost;
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
		LossInterrupter interrupter = (this.onLockLost == OnLockLost.INTERRUPT) ? new LossInterrupter(lock) : null;
		try {
			Object result = invocation.proceed();
			LockState state = lock.state();
			if (this.onLockLost == OnLockLost.FAIL && state != LockState.HELD) {
				throw new LockLostException(lockPath, lock.fencingToken(), state, "The " + lock.mode() + " lock on '"
						+ lockPath + "' (fencing token " + lock.fencingToken() + ") was " + state + " when "
						+ definition.methodDescription() + " returned; its result was discarded "
						+ "(zklock.on-lock-lost=fail)");
			}
			return result;
		}
		finally {
			if (interrupter != null) {
				interrupter.stop();
			}
			LockContext.pop();
			ReleaseResult result = lock.release();
			if (result == ReleaseResult.LOST || result == ReleaseResult.CLEANUP_PENDING) {
				logger.warn("Releasing the " + lock.mode() + " lock on '" + lockPath + "' after "
						+ definition.methodDescription() + ": " + result);
			}
		}
	}

	/** Interrupts the calling thread if its lock is lost while the method runs, never after. */
	private static final class LossInterrupter {

		private final Thread thread = Thread.currentThread();

		private final Runnable unregister;

		private boolean running = true;

		LossInterrupter(LockHandle lock) {
			this.unregister = lock.onLost((handle) -> interrupt());
		}

		private synchronized void interrupt() {
			if (this.running) {
				this.thread.interrupt();
			}
		}

		synchronized void stop() {
			this.running = false;
			this.unregister.run();
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
