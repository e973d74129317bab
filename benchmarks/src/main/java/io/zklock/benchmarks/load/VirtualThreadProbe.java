package io.zklock.benchmarks.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

import io.zklock.benchmarks.client.Library;
import io.zklock.benchmarks.client.LockClient;
import io.zklock.benchmarks.client.ZkClient;
import io.zklock.benchmarks.server.ServerCounters;
import io.zklock.lock.LockMode;

/**
 * Scenario 8's probe, run in a JVM of its own on Java 21+: N virtual threads, started at once,
 * each take and release one exclusive lock on one of a few hot lock paths, spread over a few
 * clients, with a generous wait. Prints one line {@code VTHREADS key=value …}: threads done,
 * wall time, exclusion violations, failures, JFR {@code jdk.VirtualThreadPinned} events (threshold
 * 0) by whose code parked (the first frame outside the JDK), the peak number of carrier threads
 * ({@link CarrierSampler}), and the server's requests and watch events over the run; before it,
 * one line {@code PINNED count at frame} per place that pinned.
 *
 * <p>
 * zklock takes call-owned handles ({@code tryAcquire(path, EXCLUSIVE, wait)}). Curator takes a
 * new {@link InterProcessMutex} per acquire: one instance shared by thousands of threads would
 * wake them all on every release (it waits in {@code synchronized} + {@code notifyAll},
 * CURATOR-716), which is not how anyone would run it. Every client and path is warmed up first,
 * so the paths' CONTAINER parents exist. The class compiles for Java 17: virtual threads are
 * started through {@code Executors.newVirtualThreadPerTaskExecutor()}, looked up by reflection.
 */
public final class VirtualThreadProbe {

	/** The prefix of the probe's result line. */
	public static final String PREFIX = "VTHREADS ";

	/** The prefix of the lines that name where carriers were pinned. */
	public static final String PINNED_PREFIX = "PINNED ";

	private static final String ROOT = "/bench/vthreads";

	private VirtualThreadProbe() {
	}

	/**
	 * Runs the probe.
	 * @param args library id, connect string, threads, lock paths, clients, longest run in seconds
	 * @throws Exception if the library fails outside the lock calls, or the JVM is older than 21
	 */
	public static void main(String[] args) throws Exception {
		Library library = Library.ofId(args[0]);
		String connectString = args[1];
		int threads = Integer.parseInt(args[2]);
		int paths = Integer.parseInt(args[3]);
		int clientCount = Integer.parseInt(args[4]);
		Duration cap = Duration.ofSeconds(Long.parseLong(args[5]));
		ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
		List<ZkClient> sessions = Sessions.connect(connectString, clientCount);
		List<Locker> lockers = new ArrayList<>();
		for (ZkClient session : sessions) {
			lockers.add(locker(library, session));
		}
		warmUp(lockers, paths);
		ServerCounters counters = counters(connectString);
		AtomicIntegerArray inside = new AtomicIntegerArray(paths);
		AtomicLong violations = new AtomicLong();
		AtomicInteger done = new AtomicInteger();
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		Path jfrFile = Files.createTempFile("zklock-vthreads-", ".jfr");
		boolean finished;
		double seconds;
		int peakCarriers;
		ServerCounters.Mntr before = counters.mntr();
		try (Recording recording = new Recording()) {
			recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
			recording.start();
			try (CarrierSampler carriers = CarrierSampler.start()) {
				long start = System.nanoTime();
				for (int n = 0; n < threads; n++) {
					Locker locker = lockers.get(n % clientCount);
					int path = (n / clientCount) % paths;
					virtualThreads.execute(() -> {
						try {
							LockClient.Held held = locker.lock("hot-" + path);
							try {
								if (inside.incrementAndGet(path) != 1) {
									violations.incrementAndGet();
								}
								Thread.yield();
								inside.decrementAndGet(path);
							}
							finally {
								held.unlock();
							}
							done.incrementAndGet();
						}
						catch (Throwable ex) {
							failures.add(ex);
						}
					});
				}
				virtualThreads.shutdown();
				finished = virtualThreads.awaitTermination(cap.toNanos(), TimeUnit.NANOSECONDS);
				seconds = (System.nanoTime() - start) / 1e9;
				peakCarriers = carriers.peak();
			}
			recording.stop();
			recording.dump(jfrFile);
		}
		ServerCounters.Mntr after = counters.mntr();
		Map<String, Integer> pinnedAt = new TreeMap<>();
		Map<String, String> stackAt = new TreeMap<>();
		Map<String, Integer> pinnedBy = new TreeMap<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(jfrFile)) {
			String frame = blockingFrame(event);
			pinnedAt.merge(frame, 1, Integer::sum);
			stackAt.putIfAbsent(frame, stack(event));
			pinnedBy.merge(origin(frame), 1, Integer::sum);
		}
		Files.deleteIfExists(jfrFile);
		pinnedAt.forEach((frame, count) -> System.out.println(PINNED_PREFIX + count + " at " + frame + "; stack: "
				+ stackAt.get(frame)));
		if (!failures.isEmpty()) {
			System.out.println("First failure of " + failures.size() + ":");
			failures.peek().printStackTrace(System.out);
		}
		System.out.println(String.format(Locale.ROOT,
				PREFIX + "threads=%d done=%d finished=%d seconds=%.3f violations=%d failures=%d pinned=%d "
						+ "pinnedZklock=%d pinnedCurator=%d pinnedZooKeeper=%d pinnedOther=%d peakCarriers=%d "
						+ "parallelism=%d requests=%d watchEvents=%d javaFeature=%d",
				threads, done.get(), finished ? 1 : 0, seconds, violations.get(), failures.size(),
				pinnedAt.values().stream().mapToInt(Integer::intValue).sum(), pinnedBy.getOrDefault("zklock", 0),
				pinnedBy.getOrDefault("Curator", 0), pinnedBy.getOrDefault("ZooKeeper", 0),
				pinnedBy.getOrDefault("other", 0), peakCarriers, CarrierSampler.parallelism(),
				after.packetsSince(before), after.watchersTriggeredSince(before), Runtime.version().feature()));
		// threads still waiting (a library that did not finish) must not keep the JVM alive
		System.exit(0);
	}

	/**
	 * Every client locks every path a few times alone, then with a few threads at once, so that
	 * the contended path (watches, wake-ups, releases with waiters queued) has run and its classes
	 * are initialized; all of it first on platform threads, then on virtual threads. A virtual
	 * thread that loads a class, or waits for another thread to initialize one, is pinned, even on
	 * JDK 24+; and a library may take other calls on a virtual thread (zklock waits for its replies
	 * through Curator's background calls there), whose classes only a virtual thread loads.
	 */
	private static void warmUp(List<Locker> lockers, int paths) throws Exception {
		warmUp(lockers, paths, Executors.newFixedThreadPool(4));
		warmUp(lockers, paths, newVirtualThreadPerTaskExecutor());
	}

	private static void warmUp(List<Locker> lockers, int paths, ExecutorService threads) throws Exception {
		try {
			threads.submit(() -> {
				for (Locker locker : lockers) {
					for (int path = 0; path < paths; path++) {
						for (int i = 0; i < 5; i++) {
							locker.lock("hot-" + path).unlock();
						}
					}
				}
				return null;
			}).get(2, TimeUnit.MINUTES);
			List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				Locker locker = lockers.get(t % lockers.size());
				futures.add(threads.submit(() -> {
					for (int i = 0; i < 20; i++) {
						locker.lock("hot-0").unlock();
					}
					return null;
				}));
			}
			for (java.util.concurrent.Future<?> future : futures) {
				future.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static ExecutorService newVirtualThreadPerTaskExecutor() {
		try {
			return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Virtual threads need Java 21 or newer; this is Java "
					+ Runtime.version().feature() + " (" + System.getProperty("java.home") + ")", ex);
		}
	}

	private static Locker locker(Library library, ZkClient session) {
		Duration wait = Duration.ofMinutes(10);
		return switch (library) {
			case ZKLOCK, ZKLOCK_LOCAL_HANDOFF -> {
				LockClient locks = library.open(session, ROOT);
				yield (lockPath) -> locks.lock(lockPath, LockMode.EXCLUSIVE, wait);
			}
			case CURATOR -> (lockPath) -> {
				InterProcessMutex mutex = new InterProcessMutex(session.curator(),
						ROOT + "/" + library.id() + "/" + lockPath);
				if (!mutex.acquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("No lock on '" + lockPath + "' within " + wait);
				}
				return mutex::release;
			};
			case SPRING_INTEGRATION -> throw new IllegalArgumentException(
					"Scenario 8 compares zklock and Curator only");
		};
	}

	private static ServerCounters counters(String connectString) {
		String first = connectString.split(",")[0];
		int colon = first.lastIndexOf(':');
		return new ServerCounters(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1)));
	}

	/** The first frame outside the JDK: the code that parked while pinned. */
	private static String blockingFrame(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return "(no stack trace)";
		}
		List<RecordedFrame> frames = event.getStackTrace().getFrames();
		for (RecordedFrame frame : frames) {
			String type = frame.getMethod().getType().getName();
			if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
				return type + "." + frame.getMethod().getName() + ":" + frame.getLineNumber();
			}
		}
		return frames.isEmpty() ? "(empty stack trace)"
				: frames.get(0).getMethod().getType().getName() + "." + frames.get(0).getMethod().getName();
	}

	/** The top frames of an event, top first, and why the carrier was pinned where JFR says. */
	private static String stack(RecordedEvent event) {
		List<String> frames = new ArrayList<>();
		if (event.getStackTrace() != null) {
			for (RecordedFrame frame : event.getStackTrace().getFrames()) {
				if (frames.size() == 16) {
					break;
				}
				frames.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":"
						+ frame.getLineNumber());
			}
		}
		String reason = event.hasField("pinnedReason") ? " (pinned reason: " + event.getString("pinnedReason") + ")" : "";
		return String.join(" < ", frames) + reason;
	}

	private static String origin(String frame) {
		if (frame.startsWith("io.zklock.lock.")) {
			return "zklock";
		}
		if (frame.startsWith("org.apache.curator.")) {
			return "Curator";
		}
		if (frame.startsWith("org.apache.zookeeper.")) {
			return "ZooKeeper";
		}
		return "other";
	}

	/** Takes the lock on one lock path, the library's way. */
	@FunctionalInterface
	private interface Locker {

		LockClient.Held lock(String lockPath) throws Exception;

	}

}
