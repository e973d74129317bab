package io.zklock.interceptor;

import org.jspecify.annotations.Nullable;

/**
 * Stops one subscription's work without unsubscribing from it, so that its end still arrives as
 * a signal: a Kotlin {@code suspend} function's coroutine, cancelled through its {@code Job}
 * ({@link CoroutineJobs}), completes (after its {@code finally} blocks), and only then does the
 * publisher Spring runs it as signal the end. A stop asked for before the work can be reached is
 * done as soon as it can. Thread-safe.
 */
final class WorkStopper {

	/** Stops the work, once known. Guarded by {@code this}. */
	private @Nullable Runnable stop;

	/** Whether a stop was asked for. Guarded by {@code this}. */
	private boolean requested;

	/**
	 * Tells how to stop the work, once it can be; stops it at once if that was asked already.
	 * Later calls do nothing.
	 * @param stop stops the work, must not throw
	 */
	void stopWith(Runnable stop) {
		boolean now;
		synchronized (this) {
			if (this.stop != null) {
				return;
			}
			this.stop = stop;
			now = this.requested;
		}
		if (now) {
			stop.run();
		}
	}

	/** Whether the work can be stopped this way (its coroutine has been reached). */
	synchronized boolean canStop() {
		return this.stop != null;
	}

	/** Stops the work, now or as soon as it can be reached. Once; later calls do nothing. */
	void stop() {
		Runnable action;
		synchronized (this) {
			if (this.requested) {
				return;
			}
			this.requested = true;
			action = this.stop;
		}
		if (action != null) {
			action.run();
		}
	}

}
