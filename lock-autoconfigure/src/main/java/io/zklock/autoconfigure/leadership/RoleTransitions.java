package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.Candidate;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.LeadershipListener;
import io.zklock.leadership.RevocationReason;
import io.zklock.leadership.Term;

/**
 * What zklock's Spring support does at each transition of one role, as the candidacy's
 * {@link LeadershipListener}, on the election's listener thread of the role (one transition at a
 * time, in order):
 * <ul>
 * <li>at a grant (also when a term resumes after jeopardy): starts the role's leader-scoped beans,
 * then publishes the grant's events;</li>
 * <li>at a revocation: stops them, within the handover time-out, then publishes the revocation's
 * events. A voluntary end of the term (a yield, a step-down, a shutdown) waits for this before the
 * role's lock node is deleted, so the next leader starts after this one's work stopped;</li>
 * <li>at a leader change: publishes its events.</li>
 * </ul>
 * The starts and stops run inside the {@link LeadershipTransitionObserver}s, the first outermost.
 * An event listener that throws is logged, and the other events are still published.
 */
final class RoleTransitions implements LeadershipListener {

	private static final Log logger = LogFactory.getLog(RoleTransitions.class);

	private final String role;

	private final LeaderElection election;

	private final LeaderScopedBeans beans;

	private final List<LeadershipTransitionObserver> observers;

	private final List<RoleEvents> events;

	private final RevocationClock clock;

	private final Duration handoverTimeout;

	/** When the current term was granted (or resumed), on {@link System#nanoTime()}. */
	private volatile long grantedAt = System.nanoTime();

	/** The candidacy as last found, for the events of a candidacy that has left since. */
	private volatile @Nullable Candidacy lastCandidacy;

	RoleTransitions(String role, LeaderElection election, LeaderScopedBeans beans,
			List<LeadershipTransitionObserver> observers, List<RoleEvents> events, RevocationClock clock,
			Duration handoverTimeout) {
		this.role = role;
		this.election = election;
		this.beans = beans;
		this.observers = List.copyOf(observers);
		this.events = List.copyOf(events);
		this.clock = clock;
		this.handoverTimeout = handoverTimeout;
	}

	@Override
	public void onGranted(Term term) {
		this.grantedAt = System.nanoTime();
		observe(0, (observer, work) -> observer.granted(term, work), this.beans::start);
		Candidacy candidacy = candidacy();
		if (candidacy != null) {
			this.events.forEach((each) -> publish(() -> each.granted(candidacy, term), "granted"));
		}
	}

	@Override
	public void onRevoked(Term term, RevocationReason reason) {
		Duration since = this.clock.sinceRevocation(reason, this.grantedAt, System.nanoTime());
		observe(0, (observer, work) -> observer.revoked(term, reason, since, work),
				() -> this.beans.stop(this.handoverTimeout));
		Candidacy candidacy = candidacy();
		if (candidacy != null) {
			this.events.forEach((each) -> publish(() -> each.revoked(candidacy, term, reason), "revoked"));
		}
	}

	@Override
	public void onLeaderChanged(String role, @Nullable Candidate leader) {
		Candidacy candidacy = candidacy();
		if (candidacy != null) {
			this.events.forEach((each) -> publish(() -> each.leaderChanged(candidacy, role, leader), "leader changed"));
		}
	}

	/** Runs {@code work} inside the observers from {@code index} on, each exactly once. */
	private void observe(int index, Wrap wrap, Runnable work) {
		if (index == this.observers.size()) {
			work.run();
			return;
		}
		LeadershipTransitionObserver observer = this.observers.get(index);
		boolean[] ran = new boolean[1];
		Runnable inner = () -> {
			if (!ran[0]) {
				ran[0] = true;
				observe(index + 1, wrap, work);
			}
		};
		try {
			wrap.around(observer, inner);
		}
		catch (RuntimeException ex) {
			logger.warn("Leadership transition observer " + observer + " of role '" + this.role + "' failed", ex);
		}
		// an observer that forgot the work (or failed before it) must not keep the beans from moving
		inner.run();
	}

	private void publish(Runnable publication, String what) {
		try {
			publication.run();
		}
		catch (RuntimeException ex) {
			logger.warn("A listener of the " + what + " event of role '" + this.role + "' failed", ex);
		}
	}

	private @Nullable Candidacy candidacy() {
		Candidacy found = this.election.candidacy(this.role).orElse(null);
		if (found != null) {
			this.lastCandidacy = found;
			return found;
		}
		return this.lastCandidacy;
	}

	/** Applies one observer around some work. */
	@FunctionalInterface
	private interface Wrap {

		void around(LeadershipTransitionObserver observer, Runnable work);

	}

}
