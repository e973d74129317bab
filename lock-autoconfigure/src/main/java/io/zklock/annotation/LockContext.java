package io.zklock.annotation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

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

	private static final ThreadLocal<Deque<LockHandle>> CURRENT = ThreadLocal.withInitial(ArrayDeque::new);

	/** The annotated calls running on this thread without locks, because zklock is disabled. */
	private static final ThreadLocal<Deque<String>> UNLOCKED = new ThreadLocal<>();

	private LockContext() {
	}

	/**
	 * The lock of the innermost {@link DistributedLock} call running on this thread.
	 * @return the lock, or empty outside an annotated call
	 */
	public static Optional<LockHandle> currentLock() {
		return Optional.ofNullable(CURRENT.get().peek());
	}

	/**
	 * Every lock held by the {@link DistributedLock} calls running on this thread, innermost
	 * last; a method with several locks contributes them in the order it took them.
	 * @return the locks, empty outside an annotated call
	 */
	public static List<LockHandle> currentLocks() {
		List<LockHandle> locks = new ArrayList<>(CURRENT.get());
		Collections.reverse(locks);
		return List.copyOf(locks);
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
		Deque<String> unlocked = UNLOCKED.get();
		if (unlocked != null && !unlocked.isEmpty()) {
			return new IllegalStateException(disabled(unlocked.peek(), "LockContext"));
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

	/**
	 * Marks an annotated call that runs without locks, because zklock is disabled, on this
	 * thread until {@link #exitUnlocked()}.
	 * Called by zklock's interceptor ({@code io.zklock.interceptor}) around an annotated call;
	 * applications do not call it.
	 * @param method the method, for messages
	 */
	public static void enterUnlocked(String method) {
		Deque<String> unlocked = UNLOCKED.get();
		if (unlocked == null) {
			unlocked = new ArrayDeque<>();
			UNLOCKED.set(unlocked);
		}
		unlocked.push(method);
	}

	/**
	 * Ends what {@link #enterUnlocked(String)} began.
	 * Called by zklock's interceptor ({@code io.zklock.interceptor}) around an annotated call;
	 * applications do not call it.
	 */
	public static void exitUnlocked() {
		Deque<String> unlocked = UNLOCKED.get();
		if (unlocked != null) {
			unlocked.poll();
			if (unlocked.isEmpty()) {
				UNLOCKED.remove();
			}
		}
	}

	/**
	 * Makes {@code locks} current on this thread, in order, until {@link #pop(List)}.
	 * Called by zklock's interceptor ({@code io.zklock.interceptor}) around an annotated call;
	 * applications do not call it.
	 * @param locks the call's locks, in acquisition order
	 */
	public static void push(List<LockHandle> locks) {
		Deque<LockHandle> stack = CURRENT.get();
		locks.forEach(stack::push);
	}

	/**
	 * Ends what {@link #push(List)} began with the same locks.
	 * Called by zklock's interceptor ({@code io.zklock.interceptor}) around an annotated call;
	 * applications do not call it.
	 * @param locks the locks given to {@link #push(List)}
	 */
	public static void pop(List<LockHandle> locks) {
		Deque<LockHandle> stack = CURRENT.get();
		for (int i = 0; i < locks.size(); i++) {
			stack.poll();
		}
		if (stack.isEmpty()) {
			CURRENT.remove();
		}
	}

}
