package io.zklock.vthreads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * Records, with JFR in this JVM, every event of a virtual thread that blocks or could block its
 * carrier, each with its stack trace and threshold 0:
 * <ul>
 * <li>{@code jdk.VirtualThreadPinned}: a virtual thread parked while pinned to its carrier
 * (on JDK 24+ only native frames and class initializers still pin; on JDK 21–23 also a
 * {@code synchronized} block or {@code Object.wait()});</li>
 * <li>{@code jdk.JavaMonitorWait} of a virtual thread: {@code Object.wait()}, which pins on JDK
 * 21–23.</li>
 * </ul>
 * Not recorded: a virtual thread's contended {@code synchronized} entry (it blocks the carrier on
 * JDK 21–23), for which JDK 25 emits no {@code jdk.JavaMonitorEnter} event.
 * Each event is put down to the code that blocked ({@link Origin}): the first frame, from the top,
 * outside the JDK; for a monitor event whose stack shows none (JDK 24+ records a virtual
 * thread's monitor events after unmounting it), the class of the monitor.
 */
final class BlockingEvents implements AutoCloseable {

	static final String PINNED = "jdk.VirtualThreadPinned";

	static final String MONITOR_WAIT = "jdk.JavaMonitorWait";

	private final RecordingStream stream = new RecordingStream();

	private final ConcurrentLinkedQueue<Blocking> events = new ConcurrentLinkedQueue<>();

	private BlockingEvents() {
		for (String name : List.of(PINNED, MONITOR_WAIT)) {
			this.stream.enable(name).withThreshold(Duration.ZERO).withStackTrace();
			this.stream.onEvent(name, this::record);
		}
	}

	/** Starts recording. */
	static BlockingEvents start() {
		BlockingEvents recorder = new BlockingEvents();
		recorder.stream.startAsync();
		return recorder;
	}

	/** Stops recording; every event recorded until now has been handled when this returns. */
	void stop() {
		this.stream.stop();
	}

	@Override
	public void close() {
		this.stream.close();
	}

	private void record(RecordedEvent event) {
		RecordedThread thread = event.getThread();
		String name = event.getEventType().getName();
		// a pinned event is always a virtual thread's; monitor events count only for virtual threads
		if (!name.equals(PINNED) && (thread == null || !thread.isVirtual())) {
			return;
		}
		List<String> stack = stack(event.getStackTrace());
		String where = stack.stream().filter((frame) -> Origin.ofType(frame) != Origin.JDK).findFirst().orElse(null);
		if (where == null && event.hasField("monitorClass") && event.getClass("monitorClass") != null) {
			// JDK 24+ reports a virtual thread's Object.wait() once it is unmounted, with only
			// Continuation.enterSpecial on the stack: the monitor's class is then what tells whose it is
			where = "monitor of class " + event.getClass("monitorClass").getName();
		}
		if (where == null) {
			where = stack.isEmpty() ? "(no stack trace)" : stack.get(0);
		}
		this.events.add(new Blocking(name, Origin.ofType(where.replaceFirst("^monitor of class ", "")), where, stack,
				event.getDuration()));
	}

	/** The recorded events of one type. */
	List<Blocking> of(String eventName) {
		return this.events.stream().filter((event) -> event.eventName().equals(eventName)).toList();
	}

	/** Counts of the events of one type by origin, such as {@code {Curator=3, zklock=0}}. */
	Map<Origin, Long> byOrigin(String eventName) {
		return of(eventName).stream()
			.collect(Collectors.groupingBy(Blocking::origin, () -> new TreeMap<>(), Collectors.counting()));
	}

	/** The distinct blocking frames of one type's events from one origin, with their counts. */
	Map<String, Long> frames(String eventName, Origin origin) {
		return of(eventName).stream()
			.filter((event) -> event.origin() == origin)
			.collect(Collectors.groupingBy(Blocking::blockingFrame, () -> new TreeMap<>(), Collectors.counting()));
	}

	/** One line per event type: its count and the counts by origin. */
	String summary() {
		StringBuilder out = new StringBuilder();
		for (String name : List.of(PINNED, MONITOR_WAIT)) {
			out.append(String.format(Locale.ROOT, "  %-24s %,6d %s%n", name, of(name).size(), byOrigin(name)));
			for (Origin origin : Origin.values()) {
				frames(name, origin).forEach((frame, count) -> out
					.append(String.format(Locale.ROOT, "      %-9s %,6d at %s%n", origin.label(), count, frame)));
			}
		}
		return out.toString();
	}

	private static List<String> stack(RecordedStackTrace trace) {
		List<String> frames = new ArrayList<>();
		if (trace != null) {
			for (RecordedFrame frame : trace.getFrames()) {
				frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":"
						+ frame.getLineNumber());
			}
		}
		return frames;
	}

	/**
	 * One recorded event.
	 * @param eventName the JFR event type
	 * @param origin whose code blocked
	 * @param blockingFrame the first frame outside the JDK ({@code class.method:line}); if the
	 * stack has none, {@code monitor of class X} for a monitor event, else the top frame
	 * @param stack the frames, top first ({@code class.method:line})
	 * @param duration how long it blocked
	 */
	record Blocking(String eventName, Origin origin, String blockingFrame, List<String> stack, Duration duration) {

		@Override
		public String toString() {
			return this.eventName + " (" + this.origin.label() + ", " + this.blockingFrame + ", "
					+ this.duration.toNanos() / 1000 + " µs)\n\tat " + String.join("\n\tat ", this.stack);
		}

	}

	/** Whose code a blocking event comes from: the first frame outside the JDK. */
	enum Origin {

		ZKLOCK("zklock"), CURATOR("Curator"), ZOOKEEPER("ZooKeeper"), TEST("test"), OTHER("other"), JDK("JDK");

		private final String label;

		Origin(String label) {
			this.label = label;
		}

		String label() {
			return this.label;
		}

		static Origin ofType(String typeName) {
			if (typeName.startsWith("io.zklock.vthreads.")) {
				return TEST;
			}
			if (typeName.startsWith("io.zklock.")) {
				return ZKLOCK;
			}
			if (typeName.startsWith("org.apache.curator.")) {
				return CURATOR;
			}
			if (typeName.startsWith("org.apache.zookeeper.")) {
				return ZOOKEEPER;
			}
			if (typeName.startsWith("java.") || typeName.startsWith("jdk.") || typeName.startsWith("sun.")) {
				return JDK;
			}
			return OTHER;
		}

		@Override
		public String toString() {
			return this.label;
		}

	}

}
