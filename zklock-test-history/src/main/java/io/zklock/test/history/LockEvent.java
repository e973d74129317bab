package io.zklock.test.history;

import io.zklock.lock.LockMode;

/**
 * One event of a lock history: something a holder did or was told about one lock path (for a
 * leadership term, the role; for a write, the guarded resource), stamped with {@link System#nanoTime()} (monotonic; on Linux it is {@code CLOCK_MONOTONIC},
 * so stamps of the processes of one machine compare too).
 *
 * @param nanos when it happened, on {@link System#nanoTime()}
 * @param holder who: an application instance, a process or a session, such as {@code "app-1"}
 * @param thread the thread (or worker) that did it, such as {@code "http-nio-8080-exec-3"}
 * @param type what happened
 * @param lockPath the lock path relative to the lock root, such as {@code "orders/42"}
 * @param mode the lock mode
 * @param fencingToken the fencing token of the hold, {@code 0} where none applies (an acquire
 * that is still waiting or failed)
 * @param detail extra words, such as a {@code ReleaseResult} or a failure, or {@code ""} (a
 * {@code null} detail becomes {@code ""}; any other field {@code null} throws
 * {@link IllegalArgumentException})
 */
public record LockEvent(long nanos, String holder, String thread, Type type, String lockPath, LockMode mode,
		long fencingToken, String detail) {

	/**
	 * Creates an event.
	 * @param nanos when it happened, on {@link System#nanoTime()}
	 * @param holder who
	 * @param thread the thread or worker
	 * @param type what happened
	 * @param lockPath the lock path
	 * @param mode the lock mode
	 * @param fencingToken the fencing token, {@code 0} where none applies
	 * @param detail extra words, {@code null} for none
	 * @throws IllegalArgumentException if a field other than {@code detail} is {@code null}
	 */
	public LockEvent {
		if (holder == null || thread == null || type == null || lockPath == null || mode == null) {
			throw new IllegalArgumentException("Lock event fields must not be null: holder=" + holder + ", thread="
					+ thread + ", type=" + type + ", lockPath=" + lockPath + ", mode=" + mode);
		}
		detail = (detail != null) ? detail : "";
	}

	/** What a {@link LockEvent} says happened. */
	public enum Type {

		/** An acquire began (the start of its wait): the real-time order of tokens is measured from here. */
		ACQUIRING,

		/**
		 * The acquire returned a lock (a new lock node): the hold starts. A hold is matched to its
		 * end by holder, lock path and fencing token.
		 */
		GRANTED,

		/** A reentrant acquire returned: it must carry the token of the hold it re-entered. */
		REENTERED,

		/** An acquire timed out or failed; nothing is held. */
		FAILED,

		/** The holder began to release its last hold of the lock node: the hold ends here. */
		RELEASING,

		/** A release finished; the detail says what it found, such as {@code RELEASED} or {@code LOST}. */
		RELEASED,

		/**
		 * The holder's library put the lock in doubt (connection suspended): the hold may have
		 * ended here.
		 */
		IN_DOUBT,

		/** The holder's library declared the lock lost (session ended): the hold ends here at the latest. */
		LOST,

		/** A fenced resource accepted a write carrying this token. */
		WRITE_ACCEPTED,

		/** A fenced resource refused a write carrying this token (a stale token). */
		WRITE_REFUSED,

		/** The holder died (its process was killed): every hold of the holder ends here. */
		DIED,

		/**
		 * The holder became leader: a term of the role named by the lock path began, or resumed after
		 * jeopardy (the same token again), with this token. Judged by
		 * {@link HistoryChecker#checkTerms(java.util.List)}, not as a lock grant.
		 */
		TERM_GRANTED,

		/** The holder stopped being leader: the term with this token was revoked; the detail says why. */
		TERM_REVOKED

	}

}
