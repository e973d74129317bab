package io.zklock.annotation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.lock.LockHandle;
import io.zklock.lock.LockLostException;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.BridgeMethodResolver;

/**
 * Runs {@link DistributedLock} and {@link DistributedSemaphore} methods under their locks:
 * resolves the lock paths, takes them within the wait time, exposes them through
 * {@link LockContext}, and releases them when the method's work is done: when it returns
 * or throws; after the transaction it joined completes; when its {@link CompletionStage}
 * completes (the stage the caller gets completes after the release); or, for Reactor publishers, on complete, error or cancel.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockDefinitionSource definitions;

	private final LockKeyResolver keyResolver;

	private final LockAcquirer acquirer;

	private final AnnotationSettings settings;

	DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyResolver keyResolver, LockAcquirer acquirer,
			AnnotationSettings settings) {
		this.definitions = definitions;
		this.keyResolver = keyResolver;
		this.acquirer = acquirer;
		this.settings = settings;
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
		List<ResolvedLock> targets = this.keyResolver.resolve(definition, method, invocation.getArguments(), target);
		Duration wait = (definition.waitTime() != null) ? definition.waitTime() : this.settings.defaultWaitTime();
		if (definition.returnKind() == ReturnKind.MONO || definition.returnKind() == ReturnKind.FLUX) {
			MethodInvocation deferred = ((ProxyMethodInvocation) invocation).invocableClone();
			return ReactorSupport.around(definition.returnKind(), () -> acquire(definition, targets, wait),
					deferred::proceed);
		}
		AcquiredLocks held = acquire(definition, targets, wait);
		if (held == null) {
			return ReturnKind.skippedValue(method.getReturnType());
		}
		if (definition.returnKind() == ReturnKind.COMPLETION_STAGE) {
			return invokeAsync(invocation, held);
		}
		return invokeSync(invocation, definition, held);
	}

	private Object invokeSync(MethodInvocation invocation, LockDefinition definition, AcquiredLocks held)
			throws Throwable {
		boolean joinedTransaction = this.settings.releaseAfterTransaction() && TransactionSupport.inTransaction();
		held.locks().forEach(LockContext::push);
		LossInterrupter interrupter = (this.settings.onLockLost() == OnLockLost.INTERRUPT)
				? new LossInterrupter(held.locks()) : null;
		try {
			Object result = invocation.proceed();
			LockHandle lost = held.firstNotHeld();
			if (lost != null && this.settings.onLockLost() == OnLockLost.FAIL) {
				throw new LockLostException(lost.lockPath(), lost.fencingToken(), lost.state(), "The " + lost.mode()
						+ " lock on '" + lost.lockPath() + "' (fencing token " + lost.fencingToken() + ") was "
						+ lost.state() + " when " + definition.methodDescription()
						+ " returned; its result was discarded (zklock.on-lock-lost=fail)");
			}
			return result;
		}
		finally {
			if (interrupter != null) {
				interrupter.stop();
			}
			held.locks().forEach((lock) -> LockContext.pop());
			if (!joinedTransaction || !TransactionSupport.releaseAfterCompletion(held::release)) {
				held.release();
			}
		}
	}

	private Object invokeAsync(MethodInvocation invocation, AcquiredLocks held) throws Throwable {
		Object result;
		held.locks().forEach(LockContext::push);
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			held.release();
			throw ex;
		}
		finally {
			held.locks().forEach((lock) -> LockContext.pop());
		}
		if (!(result instanceof CompletionStage<?> stage)) {
			held.release();
			return result;
		}
		// the caller sees the stage complete only once the locks are released, so a follow-up
		// call can take them at once; cancelling what the caller got cancels the method's stage
		CompletableFuture<Object> released = new CompletableFuture<>();
		stage.whenComplete((value, error) -> {
			held.release();
			if (error != null) {
				released.completeExceptionally(error);
			}
			else {
				released.complete(value);
			}
		});
		if (!invocation.getMethod().getReturnType().isInstance(released)) {
			return result;
		}
		released.whenComplete((value, error) -> {
			if (released.isCancelled()) {
				stage.toCompletableFuture().cancel(true);
			}
		});
		return released;
	}

	/**
	 * Takes the locks for a synchronous or stage-returning call.
	 * @return the locks, or {@code null} to skip the call
	 */
	private AcquiredLocks acquire(LockDefinition definition, List<ResolvedLock> targets, Duration wait) {
		long start = System.nanoTime();
		AcquiredLocks held = this.acquirer.acquire(definition, targets, wait);
		if (held != null) {
			return held;
		}
		if (definition.onFailure() == OnLockFailure.SKIP) {
			Duration waited = Duration.ofNanos(System.nanoTime() - start);
			if (logger.isDebugEnabled()) {
				logger.debug("Skipped " + definition.methodDescription() + ": " + LockAcquirer
					.timeout(definition, targets, wait)
					.getMessage());
			}
			this.acquirer.reportSkipped(targets, waited);
			return null;
		}
		throw LockAcquirer.timeout(definition, targets, wait);
	}

	/** Interrupts the calling thread if one of its locks is lost while the method runs, never after. */
	private static final class LossInterrupter {

		private final Thread thread = Thread.currentThread();

		private final List<Runnable> unregister;

		private boolean running = true;

		LossInterrupter(List<LockHandle> locks) {
			this.unregister = locks.stream().map((lock) -> lock.onLost((handle) -> interrupt())).toList();
		}

		private synchronized void interrupt() {
			if (this.running) {
				this.thread.interrupt();
			}
		}

		synchronized void stop() {
			this.running = false;
			this.unregister.forEach(Runnable::run);
		}

	}

}
