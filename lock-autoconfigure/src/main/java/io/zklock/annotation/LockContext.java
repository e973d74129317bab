package io.zklock.annotation;

import java.util.List;
import java.util.Optional;

import io.zklock.annotation.support.LockContextHolder;
import io.zklock.lock.LockHandle;

/**
 * The lock that guards the current {@link DistributedLock} method call, so the method can
 * pass its fencing token to the resource it writes:
 *
 * <pre class="code">
 * &#064;DistributedLock(path = "inventory", key = "#sku")
 * public void reserve(String sku, int qty) {
 *     long token = LockContext.currentToken();
 *     store.write(sku, newStock, token); // the store refuses tokens older than it has seen
 * }
 * </pre>
 *
 * Bound to the thread that runs the method, for the duration of the call; nested annotated
 * calls stack, and the innermost lock is current. A {@code Mono} or {@code Flux} method's
 * pipeline, and a Kotlin {@code suspend} function, run on other threads: they read their lock
 * from the Reactor {@code Context} with {@link ReactiveLockContext}.
 *
 * <p>
 * With {@code zklock.enabled=false} annotated methods run without locks: {@link #currentLock()}
 * and {@link #currentLocks()} are empty, and {@link #currentToken()} throws saying that zklock
 * is disabled.
 */
public final class LockContext {

	private LockContext() {
	}

	/**
	 * The lock of the innermost {@link DistributedLock} call running on this thread.
	 * @return the lock, or empty outside an annotated call
	 */
	public static Optional<LockHandle> currentLock() {
		return Optional.ofNullable(LockContextHolder.current());
	}

	/**
	 * Every lock held by the {@link DistributedLock} calls running on this thread, innermost
	 * last; a method with several locks contributes them in the order it took them.
	 * @return the locks, empty outside an annotated call
	 */
	public static List<LockHandle> currentLocks() {
		return LockContextHolder.all();
	}

	/**
	 * The fencing token of the innermost {@link DistributedLock} call running on this thread.
	 * @return the fencing token
	 * @throws IllegalStateException outside an annotated call, and inside one while zklock is
	 * disabled ({@code zklock.enabled=false}), saying so
	 */
	public static long currentToken() {
		return currentLock().orElseThrow(LockContext::noLock).fencingToken();
	}

	private static IllegalStateException noLock() {
		String unlocked = LockContextHolder.unlockedMethod();
		if (unlocked != null) {
			return new IllegalStateException(disabled(unlocked, "LockContext"));
		}
		return new IllegalStateException("No @DistributedLock call is running on thread '"
				+ Thread.currentThread().getName() + "'; LockContext is only set inside a method guarded by "
				+ "@DistributedLock");
	}

	/**
	 * Says that a method has no fencing token because zklock is disabled.
	 * @param method the annotated method, as {@code Type.method(ParamTypes)}
	 * @param context {@code "LockContext"} or {@code "ReactiveLockContext"}
	 */
	static String disabled(String method, String context) {
		return "zklock is disabled (zklock.enabled=false), so " + method + " runs without a lock and has no fencing "
				+ "token. In code that must run both ways, use " + context + ".currentLock(), empty while zklock is "
				+ "disabled; or remove zklock.enabled=false.";
	}

}
