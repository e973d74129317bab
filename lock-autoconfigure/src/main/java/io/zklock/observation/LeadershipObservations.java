package io.zklock.observation;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * Wraps each transition of this instance's terms in a Micrometer {@link Observation} (by default
 * {@value DefaultLeadershipObservationConvention#NAME}): the start of a granted term's leader-scoped
 * work, and the stop of a revoked term's, so that a trace shows what each took and a failure in
 * them is the observation's error. The observation has no parent: a transition starts on the
 * election's own thread, not inside a request. Thread-safe.
 */
public class LeadershipObservations {

	private static final LeadershipObservationConvention DEFAULT_CONVENTION = new DefaultLeadershipObservationConvention();

	private final Supplier<? extends @Nullable ObservationRegistry> registry;

	private final @Nullable LeadershipObservationConvention convention;

	/**
	 * Creates the observations, looking the registry up at each transition, so that the registry
	 * may be created after them.
	 * @param registry supplies the registry, or {@code null} while there is none (the transition
	 * is then not observed)
	 * @param convention the convention to use instead of the default, or {@code null}
	 * @throws IllegalArgumentException if {@code registry} is {@code null}
	 */
	public LeadershipObservations(Supplier<? extends @Nullable ObservationRegistry> registry,
			@Nullable LeadershipObservationConvention convention) {
		if (registry == null) {
			throw new IllegalArgumentException("'registry' supplier must not be null");
		}
		this.registry = registry;
		this.convention = convention;
	}

	/**
	 * Observes the start of a granted term's work.
	 * @param term the term
	 * @param work starts the work; run once, inside the observation
	 */
	public void granted(Term term, Runnable work) {
		observe(new LeadershipTransitionContext(term.role(), term.fencingToken(), LeadershipTransitionContext.GRANTED,
				null), work);
	}

	/**
	 * Observes the stop of a revoked term's work.
	 * @param term the term
	 * @param reason why it was revoked
	 * @param work stops the work; run once, inside the observation
	 */
	public void revoked(Term term, RevocationReason reason, Runnable work) {
		observe(new LeadershipTransitionContext(term.role(), term.fencingToken(), LeadershipTransitionContext.REVOKED,
				reason), work);
	}

	private void observe(LeadershipTransitionContext context, Runnable work) {
		ObservationRegistry registry = this.registry.get();
		if (registry == null || registry.isNoop()) {
			work.run();
			return;
		}
		Observation.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> context, registry)
			.parentObservation(null)
			.observe(work);
	}

}
