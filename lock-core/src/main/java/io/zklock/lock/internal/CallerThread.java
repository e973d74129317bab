package io.zklock.lock.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import org.jspecify.annotations.Nullable;

/**
 * Whether the calling thread may wait for a ZooKeeper reply itself, with a synchronous call on
 * the client's handle, instead of parking until the client's event thread hands the reply on:
 * only a platform thread whose interrupt flag is clear. A synchronous call waits in
 * {@code synchronized} + {@code Object.wait()} ({@code ClientCnxn.submitRequest}), which pins a
 * virtual thread's carrier on JDK 21–23, and an interrupt ends it with its reply dropped. Why the
 * ordinary cycle's replies may be read so: docs/lock-protocol.md, "Who waits for a reply".
 * Thread-safe (stateless).
 */
final class CallerThread {

	/** {@code Thread.isVirtual()} on a JDK that has virtual threads (21+), else {@code null}. */
	private static final @Nullable MethodHandle IS_VIRTUAL = isVirtual();

	private CallerThread() {
	}

	private static @Nullable MethodHandle isVirtual() {
		try {
			return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (NoSuchMethodException | IllegalAccessException ex) {
			// Java 17-20: every thread is a platform thread
			return null;
		}
	}

	/**
	 * Whether the current thread may wait for a reply in a synchronous ZooKeeper call.
	 * @return {@code true} for a platform thread that is not interrupted
	 */
	static boolean mayWaitForReplies() {
		Thread current = Thread.currentThread();
		return !current.isInterrupted() && !isVirtual(current);
	}

	private static boolean isVirtual(Thread thread) {
		if (IS_VIRTUAL == null) {
			return false;
		}
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			// unreachable: isVirtual() throws nothing; take the background path if it ever did
			return true;
		}
	}

}
