package io.zklock.annotation.support;

import java.util.ArrayDeque;
import java.util.Deque;

import io.zklock.leadership.Term;
import org.jspecify.annotations.Nullable;

/**
 * The terms of the {@code @LeaderOnly} calls running on each thread: written by zklock's
 * interceptor around each call, read by {@link io.zklock.annotation.LeaderContext}, which is what
 * applications use. Bound to the thread; nested calls stack, the innermost on top. Thread-safe (per
 * thread).
 */
public final class LeaderContextHolder {

	private static final ThreadLocal<Deque<Term>> CURRENT = new ThreadLocal<>();

	private LeaderContextHolder() {
	}

	/**
	 * The term of the innermost annotated call on this thread.
	 * @return the term, or {@code null} outside such a call
	 */
	public static @Nullable Term current() {
		Deque<Term> stack = CURRENT.get();
		return (stack != null) ? stack.peek() : null;
	}

	/**
	 * Makes {@code term} current on this thread until {@link #pop()}.
	 * @param term the call's term
	 */
	public static void push(Term term) {
		Deque<Term> stack = CURRENT.get();
		if (stack == null) {
			stack = new ArrayDeque<>();
			CURRENT.set(stack);
		}
		stack.push(term);
	}

	/** Ends what the last {@link #push(Term)} on this thread began. */
	public static void pop() {
		Deque<Term> stack = CURRENT.get();
		if (stack != null) {
			stack.poll();
			if (stack.isEmpty()) {
				CURRENT.remove();
			}
		}
	}

}
