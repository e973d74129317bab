package io.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.Lifecycle;
import org.springframework.context.Phased;
import org.springframework.context.SmartLifecycle;

/**
 * The leader-scoped lifecycle beans of one role: started when this instance is granted a term, the
 * lowest phase first, and stopped when the term is revoked, the highest phase first, the beans of a
 * phase together (as Spring's own lifecycle processor stops them), within a time-out for all of
 * them. Beans are looked up by name when first used. Called on the election's listener thread of
 * the role only, one transition at a time.
 */
final class LeaderScopedBeans {

	private static final Log logger = LogFactory.getLog(LeaderScopedBeans.class);

	private final String role;

	private final List<String> beanNames;

	private final BeanFactory beanFactory;

	/** The beans by name, in phase order; looked up at the first transition. */
	private volatile @Nullable List<Member> members;

	LeaderScopedBeans(String role, List<String> beanNames, BeanFactory beanFactory) {
		this.role = role;
		this.beanNames = List.copyOf(beanNames);
		this.beanFactory = beanFactory;
	}

	boolean isEmpty() {
		return this.beanNames.isEmpty();
	}

	List<String> beanNames() {
		return this.beanNames;
	}

	/**
	 * Starts the beans that are not running, the lowest phase first. A bean that fails to start is
	 * logged and left; the others still start.
	 */
	void start() {
		for (Member member : members()) {
			if (member.bean().isRunning()) {
				continue;
			}
			try {
				member.bean().start();
				if (logger.isDebugEnabled()) {
					logger.debug("Started leader-scoped bean '" + member.name() + "' of role '" + this.role + "'");
				}
			}
			catch (RuntimeException ex) {
				logger.error("Leader-scoped bean '" + member.name() + "' of role '" + this.role + "' failed to start; "
						+ "this instance leads the role without it", ex);
			}
		}
	}

	/**
	 * Stops the running beans, the highest phase first, each phase's beans together, and returns once
	 * they stopped or {@code timeout} (for all phases) ran out; then logs a WARN naming those still
	 * stopping.
	 * @param timeout the longest wait for all of them
	 * @return whether every bean stopped within the time-out
	 */
	boolean stop(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		Map<Integer, List<Member>> phases = new TreeMap<>(Comparator.reverseOrder());
		for (Member member : members()) {
			phases.computeIfAbsent(member.phase(), (phase) -> new ArrayList<>()).add(member);
		}
		boolean stoppedAll = true;
		for (List<Member> phase : phases.values()) {
			List<Member> running = phase.stream().filter((member) -> member.bean().isRunning()).toList();
			if (running.isEmpty()) {
				continue;
			}
			CountDownLatch stopped = new CountDownLatch(running.size());
			for (Member member : running) {
				stop(member, stopped);
			}
			long left = deadline - System.nanoTime();
			boolean inTime;
			try {
				inTime = stopped.await(Math.max(0, left), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				inTime = false;
			}
			if (!inTime) {
				stoppedAll = false;
				logger.warn("Leader-scoped beans of role '" + this.role + "' did not stop within "
						+ "zklock.leadership.handover-timeout (" + timeout.toMillis() + " ms): "
						+ running.stream().filter((member) -> member.bean().isRunning()).map(Member::name)
							.collect(Collectors.joining(", ", "[", "]"))
						+ " may still run while the role is handed over");
			}
		}
		return stoppedAll;
	}

	private void stop(Member member, CountDownLatch stopped) {
		try {
			if (member.bean() instanceof SmartLifecycle smart) {
				smart.stop(stopped::countDown);
			}
			else {
				member.bean().stop();
				stopped.countDown();
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Stopping leader-scoped bean '" + member.name() + "' of role '" + this.role + "'");
			}
		}
		catch (RuntimeException ex) {
			stopped.countDown();
			logger.warn("Leader-scoped bean '" + member.name() + "' of role '" + this.role + "' failed to stop", ex);
		}
	}

	private List<Member> members() {
		List<Member> found = this.members;
		if (found == null) {
			List<Member> members = new ArrayList<>();
			for (String name : this.beanNames) {
				Lifecycle bean = this.beanFactory.getBean(name, Lifecycle.class);
				members.add(new Member(name, bean, (bean instanceof Phased phased) ? phased.getPhase() : 0));
			}
			members.sort(Comparator.comparingInt(Member::phase));
			found = List.copyOf(members);
			this.members = found;
		}
		return found;
	}

	/** A bean, with its phase: a {@link Phased} bean's, else 0, as Spring's lifecycle processor has it. */
	private record Member(String name, Lifecycle bean, int phase) {
	}

}
