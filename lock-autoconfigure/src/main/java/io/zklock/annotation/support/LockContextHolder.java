package io.zklock.annotation.support;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

import io.zklock.lock.LockHandle;
import org.jspecify.annotations.Nullable;

/**
 * The locks of the {@code @DistributedLock} calls running on each thread, and the annotated calls
 * running without locks because zklock is disabled: written by zklock's interceptor around each
 * call, read by {@link io.zklock.annotation.LockContext}, which is what applications use (as
 * Spring's {@code TransactionSynchronizationManager} sits beside {@code @Transactional}). Bound to
 * the thread; nested calls stack, the innermost on top. Thread-safe (per thread).
 */
public final class LockContextHolder {

	private static final ThreadLocal<Deque<LockHandle>> CURRENT = ThreadLocal.withInitial(ArrayDeque::new);

	/** The annotated calls running on this thread without locks, because zklock is disabled. */
	private static final ThreadLocal<Deque<String>> UNLOCKED = new ThreadLocal<>();

	private LockContextHolder() {
	}

	/**
	 * The lock of the innermost annotated call on this thread.
	 * @return the lock, or {@code null} outside an annotated call
	 */
	public static @Nullable LockHandle current() {
		return CURRENT.get().peek();
	}

	/**
	 * Every lock of the annotated calls on this thread, innermost last.
	 * @return the locks, empty outside an annotated call
	 */
	public static List<LockHandle> all() {
		List<LockHandle> locks = new ArrayList<>(CURRENT.get());
		Collections.reverse(locks);
		return List.copyOf(locks);
	}

	/**
	 * The innermost annotated method running on this thread without locks, zklock disabled.
	 * @return the method, as {@code Type.method(ParamTypes)}, or {@code null}
	 */
	public static @Nullable String unlockedMethod() {
		Deque<String> unlocked = UNLOCKED.get();
		return (unlocked != null) ? unlocked.peek() : null;
	}

	/**
	 * Makes {@code locks} current on this thread, in order, until {@link #pop(List)}.
	 * @param locks the call's locks, in acquisition order
	 */
	public static void push(List<LockHandle> locks) {
		Deque<LockHandle> stack = CURRENT.get();
		locks.forEach(stack::push);
	}

	/**
	 * Ends what {@link #push(List)} began with the same locks.
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

	/**
	 * Marks an annotated call that runs without locks, because zklock is disabled, on this thread
	 * until {@link #exitUnlocked()}.
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

	/** Ends what {@link #enterUnlocked(String)} began. */
	public static void exitUnlocked() {
		Deque<String> unlocked = UNLOCKED.get();
		if (unlocked != null) {
			unlocked.poll();
			if (unlocked.isEmpty()) {
				UNLOCKED.remove();
			}
		}
	}

}
