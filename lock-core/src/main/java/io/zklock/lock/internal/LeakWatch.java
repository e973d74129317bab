package io.zklock.lock.internal;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;

import io.zklock.internal.LockPaths;
import io.zklock.lock.LockState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports a {@link HoldHandle} that became unreachable while its hold was not released (Netty's
 * {@code ResourceLeakDetector} in spirit): nothing can release that handle any more, so the lock
 * stays held until the hold's other handles are released, the engine closes or its session ends. An ERROR on this
 * class's logger names the lock, the thread that acquired it and, if recorded, where; the hold
 * counts the leaked entry (a hold whose every open entry leaked can never be released by the
 * application: shutdown does not wait for it, and the engine releases it when it closes) and the
 * engine's listeners are told ({@code LockListener.onLeaked}). The handles of every engine share one
 * {@link Cleaner} and its daemon thread {@code zklock-leak-detector}; a handle's watch costs one
 * registration, ended by its release. Thread-safe.
 */
final class LeakWatch {

	private static final Logger logger = LoggerFactory.getLogger(LeakWatch.class);

	private static final Cleaner cleaner = Cleaner.create((runnable) -> {
		Thread thread = new Thread(runnable, "zklock-leak-detector");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicBoolean released = new AtomicBoolean();

	private final Cleaner.Cleanable cleanable;

	/**
	 * Watches {@code handle}, an entry of {@code hold}; the report must not reach the handle.
	 * @param release counts the leaked entry on the hold and tells the listeners
	 */
	LeakWatch(Object handle, LockHold hold, LockRelease release) {
		this.cleanable = cleaner.register(handle, new Report(hold, release, this.released));
	}

	/** The handle was released: no report, ever. */
	void released() {
		this.released.set(true);
		this.cleanable.clean();
	}

	/** Runs once, on the detector's thread when the handle became unreachable, or at its release. */
	private record Report(LockHold hold, LockRelease release, AtomicBoolean released) implements Runnable {

		@Override
		public void run() {
			if (this.released.get() || this.hold.state() == LockState.RELEASED) {
				return;
			}
			this.release.leaked(this.hold);
			logger.error("A LockHandle of the {} lock on '{}' (fencing token {}) became unreachable without being "
					+ "released: no code can release that handle any more, so the lock stays held until the hold's "
					+ "other handles are released, the lock engine closes or its session ends. {}. Release every "
					+ "handle, in a finally block or with try-with-resources.", this.hold.mode(), LockPaths.escape(this.hold.lockPath()),
					this.hold.fencingToken(), capitalized(this.hold.describeHolder()));
		}

		private static String capitalized(String text) {
			return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
		}

	}

}
