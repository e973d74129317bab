package io.zklock.fault.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The history of one test: every event of every contender, of the register and of the
 * nemesis, in arrival order. Readers take a {@link #snapshot()} sorted by stamp, or
 * {@link #subscribe()} to events as they arrive.
 *
 * <p>
 * Thread-safe.
 */
public final class History {

	private final List<Event> events = new ArrayList<>();

	private final List<EventStream> streams = new CopyOnWriteArrayList<>();

	/** Adds an event (from a contender's output). */
	public void add(Event event) {
		synchronized (this.events) {
			this.events.add(event);
		}
		for (EventStream stream : this.streams) {
			stream.offer(event);
		}
	}

	/**
	 * Records an event of the test JVM itself, stamped now.
	 * @return the event
	 */
	public Event record(String process, String type, String f, String lockPath, long token, String detail) {
		Event event = new Event(System.nanoTime(), process, "-", type, f.replaceAll("\\s+", "-"),
				(lockPath != null) ? lockPath : "-", token,
				(detail != null && !detail.isEmpty()) ? detail.replaceAll("\\s+", "_") : "-");
		add(event);
		return event;
	}

	/**
	 * Records a fault the test injects.
	 * @param kind the fault, such as {@code kill}, {@code pause}, {@code partition}
	 * @param target what it hit, such as {@code c1} or {@code server-2}
	 * @return the event, whose stamp is the fault's time
	 */
	public Event nemesis(String kind, String target) {
		return record("nemesis", "nemesis", kind, null, 0, target);
	}

	/** All events so far, sorted by stamp. */
	public List<Event> snapshot() {
		List<Event> copy;
		synchronized (this.events) {
			copy = new ArrayList<>(this.events);
		}
		copy.sort(Comparator.comparingLong(Event::nanos));
		return copy;
	}

	/** The events arriving from now on; close the stream when done. */
	public EventStream subscribe() {
		EventStream stream = new EventStream(this.streams::remove);
		this.streams.add(stream);
		return stream;
	}

	/** Writes the history, one event per line, sorted by stamp. */
	public void writeTo(Path file) {
		List<String> lines = snapshot().stream().map(Event::format).toList();
		try {
			Files.createDirectories(file.getParent());
			Files.write(file, lines);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
