package io.zklock.metrics;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * Records this instance's leadership as Micrometer meters, tag {@code role} on each:
 * <ul>
 * <li>gauge {@value #LEADER}: 1 while this instance leads the role (its term is active), else 0:
 * summed over the instances, exactly 1 once faults stop;</li>
 * <li>counter {@value #TRANSITIONS}: grants and revocations of this instance's terms, tags
 * {@code transition} ({@code granted} or {@code revoked}) and {@code reason} ({@code none} for a grant,
 * the lower-case {@link RevocationReason} for a revocation, such as {@code connection_suspended});</li>
 * <li>timer {@value #WORK_STOPPED}: the time from a revocation to the role's leader-scoped work
 * stopped, tag {@code reason} (see {@link #recordWorkStopped}).</li>
 * </ul>
 * A role's gauge and its transition counters, and the {@value LockMetricsListener#SKIPPED} counter
 * of its {@code @LeaderOnly} calls ({@code mode=leader}), are registered at zero when the role is
 * first heard of ({@link #registerRole}), so that an alert on their increase sees the first event.
 * Register it with {@link LeaderElection#addListener}; it hears every role, joined now or later.
 *
 * <p>
 * Thread-safe; recording takes no lock of its own.
 */
public class LeadershipMetrics implements LeadershipListener {

	/** Name of the gauge of leadership. */
	public static final String LEADER = "zklock.leadership.leader";

	/** Name of the counter of transitions. */
	public static final String TRANSITIONS = "zklock.leadership.transitions";

	/** Name of the timer from a revocation to the stopped leader-scoped work. */
	public static final String WORK_STOPPED = "zklock.leadership.work.stopped";

	private static final String TRANSITIONS_DESCRIPTION = "Grants and revocations of this instance's terms";

	private static final String WORK_STOPPED_DESCRIPTION = "Time from a revocation (the suspension of the connection, "
			+ "for one) to the role's leader-scoped work stopped";

	private final LeaderElection election;

	private final Supplier<? extends @Nullable MeterRegistry> registry;

	private final Set<String> registered = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the meters of an election, recording into a registry looked up at each event, so
	 * that the registry may be created after them.
	 * @param election the election whose roles are measured
	 * @param registry supplies the registry, or {@code null} while there is none (nothing is then
	 * recorded)
	 * @throws IllegalArgumentException if an argument is {@code null}
	 */
	public LeadershipMetrics(LeaderElection election, Supplier<? extends @Nullable MeterRegistry> registry) {
		if (election == null || registry == null) {
			throw new IllegalArgumentException("'election' and 'registry' must not be null");
		}
		this.election = election;
		this.registry = registry;
	}

	@Override
	public void onGranted(Term term) {
		registerRole(term.role());
		count(term.role(), "granted", "none");
	}

	@Override
	public void onRevoked(Term term, RevocationReason reason) {
		registerRole(term.role());
		count(term.role(), "revoked", tagOf(reason));
	}

	@Override
	public void onLeaderChanged(String role, @Nullable Candidate leader) {
		registerRole(role);
	}

	/**
	 * Records how long a revoked term's leader-scoped work took to stop.
	 * @param role the role
	 * @param reason why the term was revoked
	 * @param sinceRevocation from the revocation (for a suspended connection, from the suspension) to
	 * the work stopped
	 */
	public void recordWorkStopped(String role, RevocationReason reason, Duration sinceRevocation) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Timer.builder(WORK_STOPPED)
				.description(WORK_STOPPED_DESCRIPTION)
				.tags(Tags.of("role", role, "reason", tagOf(reason)))
				.register(registry)
				.record(sinceRevocation);
		}
	}

	/**
	 * Registers a role's gauge, and its transition and skipped-call counters at zero, unless they
	 * are registered already. Does nothing while there is no registry.
	 * @param role the role
	 */
	public void registerRole(String role) {
		if (this.registered.contains(role)) {
			return;
		}
		MeterRegistry registry = this.registry.get();
		if (registry == null) {
			return;
		}
		LeaderElection election = this.election;
		Gauge.builder(LEADER, () -> election.isLeader(role) ? 1 : 0)
			.description("Whether this instance leads the role now (1) or not (0)")
			.tag("role", role)
			.strongReference(true)
			.register(registry);
		Counter.builder(TRANSITIONS).description(TRANSITIONS_DESCRIPTION)
			.tags(Tags.of("role", role, "transition", "granted", "reason", "none"))
			.register(registry);
		for (RevocationReason reason : RevocationReason.values()) {
			Counter.builder(TRANSITIONS).description(TRANSITIONS_DESCRIPTION)
				.tags(Tags.of("role", role, "transition", "revoked", "reason", tagOf(reason)))
				.register(registry);
		}
		Counter.builder(LockMetricsListener.SKIPPED)
			.description(LockMetricsListener.SKIPPED_DESCRIPTION)
			.tags(Tags.of("lock", role, "mode", LockMetricsListener.LEADER))
			.register(registry);
		this.registered.add(role);
	}

	private void count(String role, String transition, String reason) {
		MeterRegistry registry = this.registry.get();
		if (registry != null) {
			Counter.builder(TRANSITIONS).description(TRANSITIONS_DESCRIPTION)
				.tags(Tags.of("role", role, "transition", transition, "reason", reason))
				.register(registry)
				.increment();
		}
	}

	private static String tagOf(RevocationReason reason) {
		return reason.name().toLowerCase(Locale.ROOT);
	}

}
