package io.zklock.lock;

import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Bounds one blocking ZooKeeper call by an acquire's {@link Deadline}. Curator retries a
 * call for up to the connection timeout times the retry count while the ensemble is away,
 * which a lock wait must not exceed: when the deadline passes during the call, the calling
 * thread is interrupted (ZooKeeper's synchronous calls answer interrupts at once) and the
 * call ends with {@link DeadlineExceededException}, the interrupt consumed. A create cut off
 * this way is cleaned up by Curator's protected mode, which finds and deletes its node.
 *
 * <p>
 * One daemon timer thread, shared, started on demand and ended after ten idle seconds.
 */
final class CallDeadline {

	private static final ScheduledThreadPoolExecutor TIMER = createTimer();

	private CallDeadline() {
	}

	private static ScheduledThreadPoolExecutor createTimer() {
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "zklock-call-deadline");
			thread.setDaemon(true);
			return thread;
		});
		timer.setRemoveOnCancelPolicy(true);
		timer.setKeepAliveTime(10, TimeUnit.SECONDS);
		timer.allowCoreThreadTimeOut(true);
		return timer;
	}

	/**
	 * Runs {@code call}, cut off when {@code deadline} passes.
	 * @throws DeadlineExceededException if the deadline passed before or during the call
	 * @throws Exception what the call throws otherwise
	 */
	static <T> T run(Deadline deadline, Callable<T> call) throws Exception {
		if (deadline.isInfinite()) {
			return call.call();
		}
		long remaining = deadline.remainingNanos();
		if (remaining <= 0) {
			throw new DeadlineExceededException();
		}
		Alarm alarm = new Alarm(Thread.currentThread());
		ScheduledFuture<?> scheduled = TIMER.schedule(alarm::ring, remaining, TimeUnit.NANOSECONDS);
		Exception failure = null;
		T result = null;
		try {
			result = call.call();
		}
		catch (Exception ex) {
			failure = ex;
		}
		finally {
			scheduled.cancel(false);
		}
		if (alarm.silence()) {
			Thread.interrupted();
			DeadlineExceededException exceeded = new DeadlineExceededException();
			if (failure != null) {
				exceeded.addSuppressed(failure);
			}
			throw exceeded;
		}
		if (failure != null) {
			throw failure;
		}
		return result;
	}

	/** Interrupts one thread once, unless silenced first. */
	private static final class Alarm {

		private final Thread thread;

		private boolean armed = true;

		private boolean rang;

		Alarm(Thread thread) {
			this.thread = thread;
		}

		synchronized void ring() {
			if (this.armed) {
				this.rang = true;
				this.thread.interrupt();
			}
		}

		/** Disarms the alarm; {@code true} if it had rung (its interrupt is then pending). */
		synchronized boolean silence() {
			this.armed = false;
			return this.rang;
		}

	}

	/** The deadline of an acquire passed during one of its ZooKeeper calls. */
	static final class DeadlineExceededException extends Exception {

		DeadlineExceededException() {
			super("The lock wait ran out during a ZooKeeper call", null, false, false);
		}

	}

}
