package io.zklock.metrics;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.zklock.annotation.SkippedCall;
import io.zklock.annotation.SkippedCallListener;
import io.zklock.lock.LockMode;
import io.zklock.lock.ReleaseResult;
import io.zklock.lock.event.LockListener;
import io.zklock.lock.event.LockTarget;

/**
 * Records lock events ({@link LockListener}) and skipped annotated calls
 * ({@link SkippedCallListener}) as Micrometer meters:
 * <ul>
 * <li>timer {@value #ACQUIRE}: the wait of each acquire (reentrant acquires excluded), tags
 * {@code lock}, {@code mode} and {@code outcome} ({@code acquired}, {@code timeout} or
 * {@code error});</li>
 * <li>timer {@value #HELD}: how long each lock node was held, recorded at its release, tags
 * {@code lock} and {@code mode};</li>
 * <li>counter {@value #IN_DOUBT}: held locks put in doubt by a suspended connection, tags
 * {@code lock} and {@code mode};</li>
 * <li>timer {@value #CONFIRMED}: how long each lock in doubt waited until its ownership was
 * confirmed and it was held again, tags {@code lock} and {@code mode} (a lock in doubt is
 * then counted by this timer, by {@value #LOST}, or released while in doubt);</li>
 * <li>counter {@value #LOST}: held locks lost before their release, tags {@code lock} and
 * {@code mode};</li>
 * <li>counter {@value #SKIPPED}: annotated calls skipped because their lock was busy, tags
 * {@code lock} and {@code mode}, and {@code @LeaderOnly} calls skipped because this instance did
 * not lead, tags {@code lock} (the role) and {@code mode=leader};</li>
 * <li>counter {@value #HOLD_EXCEEDED}: holds that passed a bound
 * ({@link LockListener#onHoldExceeded}), tags {@code lock}, {@code mode} and {@code outcome}
 * ({@code held}: past its {@code holdAtMost}, still held; {@code released}: released
 * {@code zklock.hold-after-cancel} after its call was cancelled, its work's end unseen).</li>
 * </ul>
 * The {@code lock} tag is {@link LockTarget#lockName()}, a name of bounded cardinality (the
 * annotation's {@code path}, never the resolved key); {@code mode} is the lower-case
 * {@link LockMode} ({@code semaphore} for a skipped {@code @DistributedSemaphore} call).
 *
 * <p>
 * The meters that alerts watch for an increase ({@value #LOST}, {@value #IN_DOUBT},
 * {@value #HOLD_EXCEEDED} with {@code outcome=held}, {@value #SKIPPED}, {@value #CONFIRMED} and
 * {@value #ACQUIRE} with {@code outcome=timeout}) are registered at zero for a lock before its first
 * event ({@link #registerLock}): Prometheus' {@code increase()} and {@code rate()} see nothing of a
 * series whose first sample is already 1, so {@code increase(zklock_lost_total[5m]) > 0} would miss
 * a lock's first loss. The auto-configuration registers them for every annotated lock when the
 * application starts; a lock taken through the API gets them at its first acquire, before it can
 * be held, lost or put in doubt.
 *
 * <p>
 * Thread-safe; recording takes no lock of its own.
 */
public class LockMetricsListener implements LockListener, SkippedCallListener {

	/** Name of the timer of acquire waits. */
	public static final String ACQUIRE = "zklock.acquire";

	/** Name of the timer of hold times. */
	public static final String HELD = "zklock.held";

	/** Name of the counter of locks put in doubt. */
	public static final String IN_DOUBT = "zklock.in.doubt";

	/** Name of the timer of locks confirmed after being in doubt. */
	public static final String CONFIRMED = "zklock.confirmed";

	/** Name of the counter of lost locks. */
	public static final String LOST = "zklock.lost";

	/** Name of the counter of skipped calls. */
	public static final String SKIPPED = "zklock.skipped";

	/** Name of the counter of holds that passed a bound. */
	public static final String HOLD_EXCEEDED = "zklock.hold.exceeded";

	private static final String ACQUIRE_DESCRIPTION = "Time spent acquiring a lock, from queueing to grant, time-out or failure";

	private static final String IN_DOUBT_DESCRIPTION = "Held locks put in doubt by a suspended connection";

	private static final String CONFIRMED_DESCRIPTION = "Time a lock was in doubt before its ownership was confirmed after a reconnect";

	private static final String LOST_DESCRIPTION = "Held locks lost before their release (session expired or ownership unconfirmed)";

	/** The {@code mode} tag of a skipped {@code @LeaderOnly} call. */
	public static final String LEADER = "leader";

	/** The description of the {@value #SKIPPED} counter. */
	public static final String SKIPPED_DESCRIPTION = "Annotated calls skipped because their lock was busy or this instance "
			+ "did not lead their role";

	private static final String HOLD_EXCEEDED_DESCRIPTION = "Holds that passed a bound: their holdAtMost (still held), or the hold after the cancel "
			+ "of a call whose work's end was not seen (released)";

	private final Supplier<? extends @Nullable MeterRegistry> registry;

	/** The locks whose meters are registered, as {@code lock + '\0' + mode}. */
	private final Set<String> registered = ConcurrentHashMap.newKeySet();

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
	public void onAcquired(LockTarget lock, long fencingToken, Duration waited) {
		registerLock(lock.lockName(), lock.mode());
		recordAcquire(lock, waited, "acquired");
	}

	@Override
	public void onTimeout(LockTarget lock, Duration waited) {
		registerLock(lock.lockName(), lock.mode());
		recordAcquire(lock, waited, "timeout");
	}

	@Override
	public void onFailed(LockTarget lock, Duration waited, Throwable error) {
		registerLock(lock.lockName(), lock.mode());
		recordAcquire(lock, waited, "error");
	}

	@Override
	public void onReleased(LockTarget lock, long fencingToken, Duration heldFor, ReleaseResult result) {
		time(HELD, "Time a lock node was held, from its grant to its release", lock, heldFor);
	}

	@Override
	public void onInDoubt(LockTarget lock, long fencingToken, Duration heldFor) {
		count(IN_DOUBT, IN_DOUBT_DESCRIPTION, lock.lockName(), lock.mode());
	}

	@Override
	public void onConfirmed(LockTarget lock, long fencingToken, Duration inDoubtFor) {
		time(CONFIRMED, CONFIRMED_DESCRIPTION, lock, inDoubtFor);
	}

	@Override
	public void onLost(LockTarget lock, long fencingToken, Duration heldFor) {
		count(LOST, LOST_DESCRIPTION, lock.lockName(), lock.mode());
	}

	@Override
	public void onHoldExceeded(LockTarget lock, long fencingToken, Duration heldFor, Duration bound,
			boolean released) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Counter.builder(HOLD_EXCEEDED)
				.description(HOLD_EXCEEDED_DESCRIPTION)
				.tags(tags(lock.lockName(), lock.mode()).and("outcome", released ? "released" : "held"))
				.register(registry)
				.increment();
		}
	}

	@Override
	public void onSkipped(SkippedCall call) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Tags tags = (call.reason() == SkippedCall.Reason.NOT_LEADER) ? Tags.of("lock", call.lockName(), "mode", LEADER)
					: tags(call.lockName(), call.mode());
			Counter.builder(SKIPPED).description(SKIPPED_DESCRIPTION).tags(tags).register(registry).increment();
		}
	}

	/**
	 * Registers at zero the meters of one lock that alerts watch for an increase, unless they
	 * are registered already: for a lock, {@value #LOST}, {@value #IN_DOUBT}, {@value #SKIPPED},
	 * {@value #HOLD_EXCEEDED} ({@code outcome=held}), {@value #CONFIRMED} and {@value #ACQUIRE}
	 * ({@code outcome=timeout}); for a semaphore, {@value #SKIPPED}. Does nothing while there is no
	 * registry.
	 * @param lockName the lock's name, the {@code lock} tag ({@link LockTarget#lockName()})
	 * @param mode the lock's mode, or {@code null} for a {@code @DistributedSemaphore}
	 */
	public void registerLock(String lockName, @Nullable LockMode mode) {
		String key = lockName + '\0' + mode;
		if (this.registered.contains(key)) {
			return;
		}
		MeterRegistry registry = this.registry.get();
		if (registry == null) {
			return;
		}
		Tags tags = tags(lockName, mode);
		Counter.builder(SKIPPED).description(SKIPPED_DESCRIPTION).tags(tags).register(registry);
		if (mode != null) {
			Counter.builder(LOST).description(LOST_DESCRIPTION).tags(tags).register(registry);
			Counter.builder(IN_DOUBT).description(IN_DOUBT_DESCRIPTION).tags(tags).register(registry);
			Counter.builder(HOLD_EXCEEDED)
				.description(HOLD_EXCEEDED_DESCRIPTION)
				.tags(tags.and("outcome", "held"))
				.register(registry);
			Timer.builder(CONFIRMED).description(CONFIRMED_DESCRIPTION).tags(tags).register(registry);
			Timer.builder(ACQUIRE).description(ACQUIRE_DESCRIPTION).tags(tags.and("outcome", "timeout")).register(registry);
		}
		this.registered.add(key);
	}

	private void recordAcquire(LockTarget lock, Duration waited, String outcome) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Timer.builder(ACQUIRE)
				.description(ACQUIRE_DESCRIPTION)
				.tags(tags(lock.lockName(), lock.mode()).and("outcome", outcome))
				.register(registry)
				.record(waited);
		}
	}

	private void time(String name, String description, LockTarget lock, Duration duration) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Timer.builder(name)
				.description(description)
				.tags(tags(lock.lockName(), lock.mode()))
				.register(registry)
				.record(duration);
		}
	}

	private void count(String name, String description, String lockName, @Nullable LockMode mode) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Counter.builder(name).description(description).tags(tags(lockName, mode)).register(registry).increment();
		}
	}

	private static Tags tags(String lockName, @Nullable LockMode mode) {
		String tagMode = (mode != null) ? mode.name().toLowerCase(Locale.ROOT) : "semaphore";
		return Tags.of("lock", lockName, "mode", tagMode);
	}

}
