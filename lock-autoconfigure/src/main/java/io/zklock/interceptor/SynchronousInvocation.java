package io.zklock.interceptor;

import java.util.function.Consumer;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.DistributedLock;
import io.zklock.annotation.OnLockLost;
import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.support.LockContextHolder;
import io.zklock.lock.HoldOwner;
import io.zklock.lock.LockLostException;

/**
 * A call whose work is done when the method returns: its locks are thread-owned (reentrant on
 * this thread), exposed through {@link LockContext}, kept until a transaction the method joined
 * completes, and checked under {@code zklock.on-lock-lost} when the method returns. With
 * {@link DistributedLock#holdAtLeast()}, locks kept past the work are detached from the thread
 * when the work ends: the thread no longer holds them, so it cannot re-enter them. Under
 * {@link DistributedLock#holdAtMost()}, the calling thread is the holder thread that a breach
 * names and, by policy, interrupts; a caller cannot cancel a synchronous call, so its locks go
 * exactly when it returns.
 */
final class SynchronousInvocation {

	private SynchronousInvocation() {
	}

	/** Runs the call under its locks; {@code skipped} is the result of a skipped call. */
	static @Nullable Object invoke(MethodInvocation invocation, CallLocks call, LockAcquirer acquirer,
			AnnotationSettings settings, Consumer<SkippedCall> skipped, @Nullable Object skippedResult) throws Throwable {
		LockedCall held = call.acquire(acquirer, HoldOwner.THREAD, skipped);
		if (held == null) {
			return skippedResult;
		}
		held.start();
		boolean joinedTransaction = settings.releaseAfterTransaction() && TransactionSupport.inTransaction();
		LossInterrupter interrupter = (settings.onLockLost() == OnLockLost.INTERRUPT) ? new LossInterrupter(held)
				: null;
		LockContextHolder.push(held.locks());
		held.methodRunning();
		try {
			Object result = invocation.proceed();
			LockLostException lost = (settings.onLockLost() == OnLockLost.FAIL)
					? held.lostException("returned", LockedCall.RESULT_DISCARDED) : null;
			if (lost != null) {
				throw lost;
			}
			return result;
		}
		finally {
			held.methodReturned();
			if (interrupter != null) {
				interrupter.stop();
			}
			LockContextHolder.pop(held.locks());
			if (!joinedTransaction || !TransactionSupport.holdUntilCompletion(held, held::workDone,
					settings.onLockLost() != OnLockLost.IGNORE)) {
				held.workDone();
			}
		}
	}

	/** Interrupts the calling thread if one of its locks is lost while the method runs, never after. */
	private static final class LossInterrupter {

		private final Thread thread = Thread.currentThread();

		private final Runnable unregister;

		private boolean running = true;

		LossInterrupter(LockedCall held) {
			this.unregister = held.onLoss(this::interrupt);
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

}
