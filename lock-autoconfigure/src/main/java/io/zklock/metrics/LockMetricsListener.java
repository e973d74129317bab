package io.zklock.metrics;

import java.util.Locale;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.zklock.lock.LockEvent;
import io.zklock.lock.LockListener;

/**
 * Records {@link LockEvent}s as Micrometer meters:
 * <ul>
 * <li>timer {@value #ACQUIRE}: the wait of each acquire (reentrant acquires excluded), tags
 * {@code lock}, {@code mode} and {@code outcome} ({@code acquired}, {@code timeout} or
 * {@code error});</li>
 * <li>timer {@value #HELD}: how long each lock node was held, recorded at its release, tags
 * {@code lock} and {@code mode};</li>
 * <li>counter {@value #LOST}: held locks lost before their release, tags {@code lock} and
 * {@code mode};</li>
 * <li>counter {@value #SKIPPED}: annotated calls skipped because their lock was busy, tags
 * {@code lock} and {@code mode}.</li>
 * </ul>
 * The {@code lock} tag is {@link LockEvent#lockName()}, a name of bounded cardinality (the
 * annotation's {@code path}, never the resolved key); {@code mode} is the lower-case
 * {@link io.zklock.lock.LockMode}.
 *
 * <p>
 * Thread-safe; recording takes no lock of its own.
 */
public class LockMetricsListener implements LockListener {

	/** Name of the timer of acquire waits. */
	public static final String ACQUIRE = "zklock.acquire";

	/** Name of the timer of hold times. */
	public static final String HELD = "zklock.held";

	/** Name of the counter of lost locks. */
	public static final String LOST = "zklock.lost";

	/** Name of the counter of skipped calls. */
	public static final String SKIPPED = "zklock.skipped";

	private final Supplier<? extends @Nullable MeterRegistry> registry;

	/**
	 * Creates a listener recording into a registry.
	 * @param registry the registry
	 */
	public LockMetricsListener(MeterRegistry registry) {
		this(() -> registry);
		if (registry == null) {
			throw new IllegalArgumentException("'registry' must not be null");
		}
	}

	/**
	 * Creates a listener that looks its registry up at each event, so that the registry may
	 * be created after the listener.
	 * @param registry supplies the registry, or {@code null} while there is none (the event
	 * is then not recorded)
	 */
	public LockMetricsListener(Supplier<? extends @Nullable MeterRegistry> registry) {
		if (registry == null) {
			throw new IllegalArgumentException("'registry' supplier must not be null");
		}
		this.registry = registry;
	}

	@Override
	public void onEvent(LockEvent event) {
		MeterRegistry registry = this.registry.get();
		if (registry == null) {
			return;
		}
		switch (event.type()) {
			case ACQUIRED -> recordAcquire(registry, event, "acquired");
			case TIMED_OUT -> recordAcquire(registry, event, "timeout");
			case FAILED -> recordAcquire(registry, event, "error");
			case RELEASED -> Timer.builder(HELD)
				.description("Time a lock node was held, from its grant to its release")
				.tags(tags(event))
				.register(registry)
				.record(event.duration());
			case LOST -> Counter.builder(LOST)
				.description("Held locks lost before their release (session expired or ownership unconfirmed)")
				.tags(tags(event))
				.register(registry)
				.increment();
			case SKIPPED -> Counter.builder(SKIPPED)
				.description("Annotated calls skipped because their lock was busy")
				.tags(tags(event))
				.register(registry)
				.increment();
			default -> {
				// ACQUIRING: the wait is recorded when its outcome is known
			}
		}
	}

	private static void recordAcquire(MeterRegistry registry, LockEvent event, String outcome) {
		Timer.builder(ACQUIRE)
			.description("Time spent acquiring a lock, from queueing to grant, time-out or failure")
			.tags(tags(event).and("outcome", outcome))
			.register(registry)
			.record(event.duration());
	}

	private static Tags tags(LockEvent event) {
		String lock = (event.lockName() != null) ? event.lockName() : "unknown";
		String mode = (event.mode() != null) ? event.mode().name().toLowerCase(Locale.ROOT) : "unknown";
		return Tags.of("lock", lock, "mode", mode);
	}

}
