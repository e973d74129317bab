package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.zklock.leadership.Candidacy;
import io.zklock.leadership.CandidacyState;
import io.zklock.leadership.LeaderElection;
import io.zklock.leadership.RevocationReason;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Joins the roles this instance is a candidate for when the application context starts, and leaves
 * every candidacy of the election when it stops: each term is revoked ({@code SHUTDOWN}), its
 * leader-scoped beans stop, and then its lock node is deleted, so the next candidate is granted
 * within a round trip instead of after the session timeout (the roles are left together, each
 * waiting at most {@code zklock.leadership.handover-timeout}).
 * <p>
 * Phase {@value #PHASE}: it starts after the web server and the other lifecycle beans of lower
 * phases, so an instance leads only once it serves, and it stops before them, before the web
 * server's graceful shutdown drains requests (whose {@code @LeaderOnly} calls are then skipped here
 * while the next leader takes over) and before zklock stops granting locks
 * ({@code LockGrantingLifecycle}); the Curator client closes after every phase. Leader-scoped beans
 * of a higher phase are stopped by the context before it, while the term still holds.
 * <p>
 * With {@code zklock.leadership.yield-when-not-ready}, the roles are joined once the application's
 * readiness accepts traffic ({@link #readinessChanged(boolean)}), and stepped down from
 * ({@code UNHEALTHY}) while it refuses traffic.
 */
final class LeadershipLifecycle implements SmartLifecycle {

	/** After the web server starts, before its graceful shutdown. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private static final Log logger = LogFactory.getLog(LeadershipLifecycle.class);

	private final LeaderElection election;

	private final LeadershipDeclarations declarations;

	private final TransitionsFactory transitions;

	private final boolean followReadiness;

	/** The roles whose candidacy has this lifecycle's transitions listener. Guarded by this. */
	private final Set<String> listened = new HashSet<>();

	private volatile boolean running;

	/** Whether readiness accepts traffic; always {@code true} unless readiness is followed. */
	private volatile boolean ready;

	LeadershipLifecycle(LeaderElection election, LeadershipDeclarations declarations, TransitionsFactory transitions,
			boolean followReadiness, boolean readyNow) {
		this.election = election;
		this.declarations = declarations;
		this.transitions = transitions;
		this.followReadiness = followReadiness;
		this.ready = !followReadiness || readyNow;
	}

	@Override
	public synchronized void start() {
		this.running = true;
		if (this.ready) {
			joinAll();
		}
		else {
			logger.info("zklock joins roles " + roleNames() + " once the application is ready to accept traffic "
					+ "(zklock.leadership.yield-when-not-ready=true)");
		}
	}

	/**
	 * Joins, or rejoins after a step-down, the roles this instance is a candidate for.
	 */
	private void joinAll() {
		for (DeclaredRole role : this.declarations.candidateRoles()) {
			Optional<Candidacy> existing = this.election.candidacy(role.role());
			if (existing.isEmpty()) {
				this.election.join(role.role(), this.transitions.forRole(role));
				this.listened.add(role.role());
				continue;
			}
			// stood down while not ready, or joined by the application itself before the context started
			if (this.listened.add(role.role())) {
				existing.get().addListener(this.transitions.forRole(role));
			}
			if (existing.get().state() == CandidacyState.STOOD_DOWN) {
				existing.get().rejoin();
			}
		}
	}

	/**
	 * Follows the application's readiness: accepting traffic joins or rejoins the roles, refusing it
	 * steps down from every candidacy ({@link RevocationReason#UNHEALTHY}), waiting for their
	 * leader-scoped beans to stop and their nodes to be deleted. Does nothing unless readiness is
	 * followed.
	 * @param acceptingTraffic whether readiness accepts traffic now
	 */
	synchronized void readinessChanged(boolean acceptingTraffic) {
		if (!this.followReadiness || this.ready == acceptingTraffic) {
			return;
		}
		this.ready = acceptingTraffic;
		if (!this.running) {
			return;
		}
		if (acceptingTraffic) {
			logger.info("Readiness accepts traffic: zklock joins roles " + roleNames());
			joinAll();
		}
		else {
			logger.info("Readiness refuses traffic: zklock steps down from roles " + roleNames() + " (UNHEALTHY) until "
					+ "it accepts traffic again");
			leaveAll((candidacy) -> candidacy.stepDown(RevocationReason.UNHEALTHY));
		}
	}

	@Override
	public void stop() {
		leaveAll(Candidacy::leave);
		synchronized (this) {
			this.listened.clear();
			this.running = false;
		}
	}

	@Override
	public void stop(Runnable callback) {
		if (this.election.candidacies().isEmpty()) {
			this.running = false;
			callback.run();
			return;
		}
		Thread leaving = new Thread(() -> {
			try {
				stop();
			}
			finally {
				callback.run();
			}
		}, "zklock-leadership-shutdown");
		leaving.setDaemon(true);
		leaving.start();
	}

	/** Ends every candidacy of the election, each on a thread of its own, and waits for them all. */
	private void leaveAll(Consumer<Candidacy> end) {
		List<CompletableFuture<Void>> ends = new ArrayList<>();
		for (Candidacy candidacy : this.election.candidacies()) {
			CompletableFuture<Void> ended = new CompletableFuture<>();
			Thread thread = new Thread(() -> {
				try {
					end.accept(candidacy);
				}
				catch (RuntimeException ex) {
					logger.warn("Could not end the candidacy for role '" + candidacy.role() + "'", ex);
				}
				finally {
					ended.complete(null);
				}
			}, "zklock-leadership-leave-" + candidacy.role());
			thread.setDaemon(true);
			thread.start();
			ends.add(ended);
		}
		CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new)).join();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private List<String> roleNames() {
		return this.declarations.candidateRoles().stream().map(DeclaredRole::role).toList();
	}

	/** Makes the listener of a role that runs its transitions. */
	@FunctionalInterface
	interface TransitionsFactory {

		RoleTransitions forRole(DeclaredRole role);

	}

	/**
	 * The factory of the auto-configuration.
	 * @param election the election
	 * @param beanFactory where leader-scoped beans are looked up
	 * @param observers the transition observers, in order
	 * @param events the event publishers
	 * @param clock when the connection was last suspended
	 * @param handoverTimeout the longest stop of leader-scoped beans
	 * @return the factory
	 */
	static TransitionsFactory transitions(LeaderElection election, BeanFactory beanFactory,
			List<LeadershipTransitionObserver> observers, List<RoleEvents> events, RevocationClock clock,
			Duration handoverTimeout) {
		return (role) -> new RoleTransitions(role.role(), election,
				new LeaderScopedBeans(role.role(), role.leaderScopedBeans(), beanFactory), observers, events, clock,
				handoverTimeout);
	}

}
