package io.zklock.interceptor;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.HoldExceededException;
import io.zklock.annotation.OnHoldExceeded;
import io.zklock.annotation.OnLockLost;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.support.LockContextHolder;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockLostException;
import io.zklock.lock.LockState;

/**
 * A call that returns a {@link CompletionStage}: its locks are call-owned (a second call queues
 * behind the first, even on the same thread), held until the method's own stage completes (and
 * a transaction the method joined completes), and released before the caller sees its stage
 * complete, so a follow-up call can take them at once.
 * <p>
 * The caller gets a stage of its own, completed from the method's: cancelling it (or completing
 * it) does not reach the method's stage, whose completion alone tells that the work has ended;
 * cancelling a {@code CompletableFuture} stops nothing behind it. Where the caller can only be
 * given the method's own stage (a return type a {@code CompletableFuture} is not), a cancelled
 * stage no longer tells the end of the work: its locks are kept {@code zklock.hold-after-cancel}
 * more ({@link LockedCall#cancelWork(String)}). When a call passes its {@code holdAtMost}
 * under {@link OnHoldExceeded#CANCEL}, zklock fails the caller's stage with
 * {@link HoldExceededException} and keeps the locks until the method's own stage completes (the
 * caller's stage completed first is left as it is); given only the method's stage, it cancels it.
 * <p>
 * {@code zklock.on-lock-lost} applies before the stage completes: {@code fail} completes it
 * with {@link LockLostException} if a lock is not held then; {@code interrupt} completes it so
 * as soon as a lock is lost, and cancels the method's stage.
 */
final class StageInvocation {

	private StageInvocation() {
	}

	/** Runs the call; {@code skippedResult} is the result of a skipped call. */
	static @Nullable Object invoke(MethodInvocation invocation, CallLocks call, LockAcquirer acquirer,
			AnnotationSettings settings, Consumer<SkippedCall> skipped, @Nullable Object skippedResult) throws Throwable {
		LockedCall held = call.acquire(acquirer, HoldOwner.CALL, skipped);
		if (held == null) {
			return skippedResult;
		}
		held.start();
		Runnable release = releaseAfterTransaction(held, settings);
		Object result;
		LockContextHolder.push(held.locks());
		held.methodRunning();
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			held.methodReturned();
			release.run();
			throw ex;
		}
		finally {
			held.methodReturned();
			LockContextHolder.pop(held.locks());
		}
		if (!(result instanceof CompletionStage<?> stage)) {
			release.run();
			return result;
		}
		CompletableFuture<Object> completed = new CompletableFuture<>();
		if (!invocation.getMethod().getReturnType().isInstance(completed)) {
			// a stage type the caller's own cannot be given as: the caller can cancel the method's stage
			stage.whenComplete((value, error) -> {
				if (isCancellation(error)) {
					held.cancelWork("its stage was cancelled");
				}
				else {
					release.run();
				}
			});
			held.cancelWith((exceeded) -> {
				cancel(stage);
				return null;
			});
			return result;
		}
		Runnable unregister = (settings.onLockLost() == OnLockLost.INTERRUPT) ? held.onLoss(() -> {
			completed.completeExceptionally(lostNow(held, call.definition().methodDescription()));
			cancel(stage);
		}) : () -> {
		};
		held.cancelWith((exceeded) -> {
			// the caller's stage only: cancelling the method's would stop nothing behind it and hide
			// the one sign that the work has ended, its completion
			completed.completeExceptionally(exceeded);
			return "zklock failed the caller's stage with HoldExceededException; the lock goes when the method's "
					+ "own stage completes, since cancelling a CompletableFuture stops nothing behind it";
		});
		stage.whenComplete((value, error) -> {
			unregister.run();
			LockLostException lost = (settings.onLockLost() == OnLockLost.FAIL)
					? held.lostException("completed", LockedCall.RESULT_DISCARDED) : null;
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
		return completed;
	}

	/** Cancels the method's stage, where it can be; cancelling it stops nothing behind it. */
	private static void cancel(CompletionStage<?> stage) {
		try {
			stage.toCompletableFuture().cancel(true);
		}
		catch (UnsupportedOperationException ex) {
			// a stage that cannot be cancelled from outside
		}
	}

	private static boolean isCancellation(@Nullable Throwable error) {
		return error instanceof CancellationException
				|| (error instanceof CompletionException && error.getCause() instanceof CancellationException);
	}

	/**
	 * The release of a call whose stage may complete before or after the transaction it joined:
	 * the locks go when both are done.
	 */
	private static Runnable releaseAfterTransaction(LockedCall held, AnnotationSettings settings) {
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

	private static LockLostException lostNow(LockedCall held, String method) {
		LockLostException lost = held.lostException("was running",
				"its stage was cancelled (zklock.on-lock-lost=interrupt)");
		return (lost != null) ? lost : new LockLostException("", 0, LockState.IN_DOUBT,
				"A lock of " + method + " was put in doubt while it ran; its stage was cancelled "
						+ "(zklock.on-lock-lost=interrupt)");
	}

}
