package io.zklock.lock;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the blocking ZooKeeper calls of one acquire by its {@link Deadline}. Curator
 * retries a call for up to the connection timeout times the retry count while the ensemble
 * is away, which a lock wait must not exceed: when the deadline passes while the acquire
 * still runs, its thread is interrupted (ZooKeeper's synchronous calls answer interrupts at
 * once), and the acquire, seeing {@link Alarm#silence()} report the ring, gives up as timed
 * out with the interrupt consumed. A create cut off this way is cleaned up by Curator's
 * protected mode, which finds and deletes its node.
 *
 * <p>
 * One alarm per acquire (not per call) keeps the cost to one timer task. One daemon timer
 * thread, shared, started on demand and ended after ten idle seconds.
 */
final class CallDeadline {

	private static final ScheduledThreadPoolExecutor TIMER = createTimer();

	private static final Alarm NEVER = new Alarm(null);

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
	 * Arms an alarm that interrupts the current thread when {@code deadline} passes.
	 * @return the alarm; silence it before the acquire's clean-up
	 */
	static Alarm arm(Deadline deadline) {
		if (deadline.isInfinite()) {
			return NEVER;
		}
		Alarm alarm = new Alarm(Thread.currentThread());
		alarm.scheduled = TIMER.schedule(alarm::ring, Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
		return alarm;
	}

	/** Interrupts one thread once, unless silenced first. */
	static final class Alarm {

		private final Thread thread;

		private volatile ScheduledFuture<?> scheduled;

		private boolean armed = true;

		private boolean rang;

		private Alarm(Thread thread) {
			this.thread = thread;
		}

		private synchronized void ring() {
			if (this.armed && this.thread != null) {
				this.rang = true;
				this.thread.interrupt();
			}
		}

		/**
		 * Disarms the alarm. If it had rung, its interrupt is consumed here.
		 * @return {@code true} if it had rung: the deadline passed during the acquire
		 */
		boolean silence() {
			ScheduledFuture<?> task = this.scheduled;
			if (task != null) {
				task.cancel(false);
			}
			synchronized (this) {
				this.armed = false;
				if (this.rang) {
					this.rang = false;
					Thread.interrupted();
					return true;
				}
				return false;
			}
		}

	}

}
