package io.zklock.leadership.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listener calls of one candidacy, run one at a time and in order on the election's listener
 * executor, whatever that executor is (a serial executor over it): the thread that noticed a change
 * only queues the call and goes on, so a listener that blocks delays only the later calls of its
 * own candidacy. Thread-safe.
 */
final class ListenerQueue {

	private static final Logger logger = LoggerFactory.getLogger(ListenerQueue.class);

	/** Set while a thread runs listener calls of any election: ending a term there must not wait for them. */
	private static final ThreadLocal<Boolean> running = new ThreadLocal<>();

	private final Executor executor;

	private final String role;

	/** Guarded by this. */
	private final Deque<Call> calls = new ArrayDeque<>();

	/** Whether a drain is queued or running on the executor. Guarded by this. */
	private boolean draining;

	ListenerQueue(Executor executor, String role) {
		this.executor = executor;
		this.role = role;
	}

	/** Whether the current thread runs listener calls now. */
	static boolean isListenerThread() {
		return running.get() != null;
	}

	/**
	 * Queues a call; it runs once {@link #dispatch()} is called (or a drain under way reaches it).
	 * Never runs user code, so it may be called while holding a lock: calls queued under one lock keep
	 * their order.
	 * @param what says what the call is, for the log if it throws
	 * @param call the call
	 * @return completes once the call has run (or was dropped because the executor refused it)
	 */
	CompletableFuture<Void> add(String what, Runnable call) {
		Call queued = new Call(what, call, new CompletableFuture<>());
		synchronized (this) {
			this.calls.add(queued);
		}
		return queued.done;
	}

	/**
	 * Has the executor run the queued calls, unless a drain is under way already. Call it without
	 * holding a lock: an executor may run the calls on the calling thread.
	 */
	void dispatch() {
		synchronized (this) {
			if (this.draining || this.calls.isEmpty()) {
				return;
			}
			this.draining = true;
		}
		try {
			this.executor.execute(this::drain);
		}
		catch (RejectedExecutionException ex) {
			logger.warn("The leadership listener executor refused the calls for role '{}' ({}); dropping them",
					this.role, ex.toString());
			dropAll();
		}
	}

	private void drain() {
		running.set(Boolean.TRUE);
		try {
			while (true) {
				Call next;
				synchronized (this) {
					next = this.calls.poll();
					if (next == null) {
						this.draining = false;
						return;
					}
				}
				try {
					next.call.run();
				}
				catch (RuntimeException | Error ex) {
					logger.warn("A leadership listener of role '{}' failed on {}", this.role, next.what, ex);
				}
				finally {
					next.done.complete(null);
				}
			}
		}
		finally {
			running.remove();
		}
	}

	private void dropAll() {
		while (true) {
			Call next;
			synchronized (this) {
				next = this.calls.poll();
				if (next == null) {
					this.draining = false;
					return;
				}
			}
			next.done.complete(null);
		}
	}

	private record Call(String what, Runnable call, CompletableFuture<Void> done) {
	}

}
