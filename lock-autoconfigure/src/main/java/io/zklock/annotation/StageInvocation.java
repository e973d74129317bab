package io.zklock.annotation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;

/**
 * A call that returns a {@link CompletionStage}: its locks are call-owned (a second call queues
 * behind the first, even on the same thread), held until the stage completes (and a transaction
 * the method joined completes), and released before the caller sees the stage complete, so a
 * follow-up call can take them at once. {@code zklock.on-lock-lost} applies before the stage
 * completes: {@code fail} completes it with {@link LockLostException} if a lock is not held
 * then; {@code interrupt} completes it so as soon as a lock is lost, and cancels the method's
 * stage.
 */
final class StageInvocation {

	private StageInvocation() {
	}

	/** Runs the call; {@code skippedResult} is the result of a skipped call. */
	static @Nullable Object invoke(MethodInvocation invocation, CallLocks call, LockAcquirer acquirer,
			AnnotationSettings settings, Consumer<SkippedCall> skipped, @Nullable Object skippedResult) throws Throwable {
		AcquiredLocks held = call.acquire(acquirer, HoldOwner.CALL, skipped);
		if (held == null) {
			return skippedResult;
		}
		Runnable release = releaseAfterTransaction(held, settings);
		Object result;
		LockContext.push(held.locks());
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			release.run();
			throw ex;
		}
		finally {
			LockContext.pop(held.locks());
		}
		if (!(result instanceof CompletionStage<?> stage)) {
			release.run();
			return result;
		}
		CompletableFuture<Object> completed = new CompletableFuture<>();
		if (!invocation.getMethod().getReturnType().isInstance(completed)) {
			// a stage type the caller's completion cannot be given as: release when it completes
			stage.whenComplete((value, error) -> release.run());
			return result;
		}
		Runnable unregister = (settings.onLockLost() == OnLockLost.INTERRUPT) ? held.onLoss(() -> {
			completed.completeExceptionally(lostNow(held, call.definition().methodDescription()));
			stage.toCompletableFuture().cancel(true);
		}) : () -> {
		};
		stage.whenComplete((value, error) -> {
			unregister.run();
			LockLostException lost = (settings.onLockLost() == OnLockLost.FAIL)
					? held.lostException("completed", AcquiredLocks.RESULT_DISCARDED) : null;
			release.run();
			if (error != null) {
				if (lost != null) {
					error.addSuppressed(lost);
				}
				completed.completeExceptionally(error);
			}
			else if (lost != null) {
				completed.completeExceptionally(lost);
			}
			else {
				completed.complete(value);
			}
		});
		completed.whenComplete((value, error) -> {
			if (completed.isCancelled()) {
				stage.toCompletableFuture().cancel(true);
			}
		});
		return completed;
	}

	/**
	 * The release of a call whose stage may complete before or after the transaction it joined:
	 * the locks go when both are done.
	 */
	private static Runnable releaseAfterTransaction(AcquiredLocks held, AnnotationSettings settings) {
		if (!settings.releaseAfterTransaction() || !TransactionSupport.inTransaction()) {
			return held::workDone;
		}
		AtomicInteger pending = new AtomicInteger(2);
		Runnable countDown = () -> {
			if (pending.decrementAndGet() == 0) {
				held.workDone();
			}
		};
		if (!TransactionSupport.holdUntilCompletion(held, countDown, settings.onLockLost() != OnLockLost.IGNORE)) {
			return held::workDone;
		}
		return countDown;
	}

	private static LockLostException lostNow(AcquiredLocks held, String method) {
		LockLostException lost = held.lostException("was running",
				"its stage was cancelled (zklock.on-lock-lost=interrupt)");
		return (lost != null) ? lost : new LockLostException("", 0, LockState.IN_DOUBT,
				"A lock of " + method + " was put in doubt while it ran; its stage was cancelled "
						+ "(zklock.on-lock-lost=interrupt)");
	}

}
