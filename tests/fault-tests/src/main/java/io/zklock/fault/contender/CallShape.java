package io.zklock.fault.contender;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a contender takes a guarded section: on which threads the lock is acquired, the fenced
 * register is read and written, and the lock is released, and so who owns the hold.
 *
 * <p>
 * The asynchronous shapes are those of a method returning a {@code CompletionStage}: the
 * calling thread takes a call-owned lock and hands the section to an executor, where it runs
 * and ends; the calling thread is free at once and its next acquire queues behind its own
 * call's lock node (a call-owned hold never joins another hold, even on the same thread).
 */
public enum CallShape {

	/**
	 * One thread acquires, reads, writes and releases: a thread-owned hold
	 * ({@code LockRequest…ownedBy(HoldOwner.THREAD)}), re-entered by the same thread every
	 * {@code reentrant-every} rounds (same lock node, same fencing token).
	 */
	THREAD("thread"),

	/**
	 * The calling thread acquires call-owned; the read–work–write and the release run on a
	 * thread of a shared section executor, as the body of a {@code CompletionStage} method.
	 */
	ASYNC("async"),

	/**
	 * As {@link #ASYNC}, but the section's completion is relayed to a third thread, of a
	 * shared release executor, which releases (a {@code whenCompleteAsync} on another pool).
	 */
	ASYNC_RELAY("async-relay");

	private final String word;

	CallShape(String word) {
		this.word = word;
	}

	/** The shape's name in commands, such as {@code async}. */
	public String word() {
		return this.word;
	}

	/** Whether the hold is thread-owned (and re-entered); else call-owned, released elsewhere. */
	public boolean isThreadOwned() {
		return this == THREAD;
	}

	/**
	 * The shape named {@code word}.
	 * @throws IllegalArgumentException if no shape has that name
	 */
	public static CallShape of(String word) {
		for (CallShape shape : values()) {
			if (shape.word.equals(word)) {
				return shape;
			}
		}
		throw new IllegalArgumentException("Call shape '" + word + "' is unknown: use one of "
				+ Arrays.stream(values()).map(CallShape::word).collect(Collectors.joining(", ")));
	}

	@Override
	public String toString() {
		return this.word;
	}

}
