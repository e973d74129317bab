package io.zklock.fault.history;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The events of a {@link History} from the moment of subscription on, to wait for the next
 * one that matches (a latch on the history, not a poll).
 */
public final class EventStream implements AutoCloseable {

	private final BlockingQueue<Event> queue = new LinkedBlockingQueue<>();

	private final Consumer<EventStream> onClose;

	EventStream(Consumer<EventStream> onClose) {
		this.onClose = onClose;
	}

	void offer(Event event) {
		this.queue.add(event);
	}

	/**
	 * Waits for the next event that matches; earlier events that do not match are dropped.
	 * @param what describes the event for the failure message
	 * @throws AssertionError if none arrives within {@code timeout}
	 */
	public Event next(String what, Predicate<Event> matches, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			long left = deadline - System.nanoTime();
			Event event = (left > 0) ? this.queue.poll(left, TimeUnit.NANOSECONDS) : null;
			if (event == null) {
				throw new AssertionError("No " + what + " within " + timeout.toMillis() + " ms");
			}
			if (matches.test(event)) {
				return event;
			}
		}
	}

	/** Drops the events received so far, so that {@link #next} waits for fresh ones. */
	public void clear() {
		this.queue.clear();
	}

	@Override
	public void close() {
		this.onClose.accept(this);
	}

}
