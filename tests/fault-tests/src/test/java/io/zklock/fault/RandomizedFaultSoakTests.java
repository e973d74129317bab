package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.check.FaultHistory;
import io.zklock.fault.check.Liveness;
import io.zklock.fault.check.SafetyVerdict;
import io.zklock.fault.check.ViolationCounts;
import io.zklock.fault.contender.CallShape;
import io.zklock.fault.ensemble.ServerDistribution;
import io.zklock.fault.ensemble.ServerProcessEnsemble;
import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.register.KeyStats;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.Hygiene;
import io.zklock.fault.scenario.NoFaultScenario;
import io.zklock.fault.scenario.RandomNemesis;
import io.zklock.test.history.CheckResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Test 7, randomized: five contender processes, each behind its own black-hole proxy, run
 * guarded rounds on two hot locks of three ZooKeeper server processes while a seeded
 * {@link RandomNemesis} mixes every fault: contender kill, pause and partition, member crash,
 * leader crash, member pause. Each contender's worker {@code w0} takes lock {@code soak/a}, then
 * lock {@code soak/b}, and holds both while it reads and writes the register's counter of each;
 * {@code w1} takes {@code soak/b} alone. So a contender that dies, or whose session ends, has lock
 * nodes on both lock paths, deleted at one zxid, and waiters on both may be unblocked by that one
 * deletion. Every {@value #GIVE_UP_EVERY}th attempt of a worker waits only a few milliseconds for
 * each lock and mostly gives up (in ZooKeeper's queue, or in a local handoff chain). Afterwards the
 * same checker judges the whole history: tokens unique and in real-time order, per lock path and
 * across the two, no stale write accepted and no lost update on either counter, every
 * contender acquires both locks within two session timeouts of the last heal, nothing left
 * behind. Overlaps are reported, not judged (holders are paused on purpose). The contender slots
 * mix the call shapes: {@code c2} (and its replacements) runs {@code async} rounds, {@code c4}
 * {@code async-relay} rounds (call-owned, section and release on pool threads), the others
 * {@code thread} rounds (thread-owned, re-entered).
 *
 * <p>
 * Runs only with {@code -Psoak}. {@code -Dzklock.soak.duration} sets how long faults are
 * injected ({@code 60s}, {@code 3m}, {@code PT1H}); {@code -Dzklock.soak.seed} replays a
 * schedule (the seed is printed).
 */
@Timeout(value = 12, unit = TimeUnit.HOURS)
class RandomizedFaultSoakTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	/** The locks, in the order rounds take them; also the register's keys. */
	private static final List<String> LOCK_PATHS = List.of("soak/a", "soak/b");

	/** The lock {@code w0} takes first: the nemesis's holder, the failover and gap figures. */
	private static final String LOCK_PATH = LOCK_PATHS.get(0);

	private static final int CONTENDERS = 5;

	/** Every so many attempts of a worker wait only a few milliseconds for each lock, and mostly give up. */
	private static final int GIVE_UP_EVERY = 6;

	/** Whether the contenders hand held lock nodes to their own waiters; on in the subclass. */
	protected boolean localHandoff() {
		return false;
	}

	@Test
	void shouldNeverBreakFencingUnderRandomFaultsAndLetEveryoneRecover() throws Exception {
		Duration duration = parseDuration(System.getProperty("zklock.soak.duration", "3m"));
		String seedProperty = System.getProperty("zklock.soak.seed", "");
		long seed = seedProperty.isBlank() ? System.nanoTime() : Long.parseLong(seedProperty.trim());
		REPORT.info("[soak] seed=" + seed + " duration=" + duration + " (replay: -Psoak -Dzklock.soak.seed="
				+ seed + " -Dzklock.soak.duration=" + duration.toSeconds() + "s)");
		assertTimeoutPreemptively(duration.plusMinutes(5), () -> soak(duration, seed));
	}

	private void soak(Duration duration, long seed) throws Exception {
		String label = "7 randomized (seed " + seed + ", " + duration.toSeconds() + " s)";
		Figures figures = new Figures(localHandoff() ? label + ", local handoff" : label);
		ServerProcessEnsemble ensemble = new ServerProcessEnsemble(ServerDistribution.maven(), 3,
				FaultLab.outputRoot().resolve("7-randomized/servers"));
		figures.ensemble(ensemble.description());
		try (FaultLab lab = new FaultLab("7-randomized", ensemble, SESSION_TIMEOUT, localHandoff())) {
			lab.startContenders(CONTENDERS, true);
			lab.live().forEach((contender) -> run(lab, contender));
			RandomNemesis nemesis = new RandomNemesis(lab, LOCK_PATH, seed, CONTENDERS, () -> run(lab, newest(lab)));
			try {
				nemesis.runFor(duration);
			}
			finally {
				nemesis.faults().forEach((fault) -> figures.fault(fault.kind().label()));
			}
			Event heal = lab.history().nemesis("quiet", "all");
			Duration bound = SESSION_TIMEOUT.multipliedBy(2);
			List<String> live = lab.liveIds();
			await().atMost(bound.plusSeconds(5))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> liveness(lab.history().snapshot(), live, heal, bound).isEmpty()
						|| System.nanoTime() - heal.nanos() > bound.toNanos());
			List<String> liveness = liveness(lab.history().snapshot(), live, heal, bound);
			lab.stopAll();

			List<Event> history = lab.history().snapshot();
			CheckResult result = FaultHistory.check(history);
			List<KeyStats> stats = LOCK_PATHS.stream().map(lab.register()::stats).toList();
			ViolationCounts violations = ViolationCounts.of(result);
			for (RandomNemesis.Fault fault : nemesis.faults()) {
				Event next = Liveness.firstFreshGrantAfter(history, LOCK_PATH, fault.at().nanos(), fault.contender());
				if (next != null) {
					figures.failover((next.nanos() - fault.at().nanos()) / 1_000_000);
				}
			}
			figures.rounds(result.grants())
				.staleWrites(stats.stream().mapToLong(KeyStats::rejectedStale).sum(),
						stats.stream().mapToLong(KeyStats::acceptedStale).sum())
				.overlaps(result.overlaps().size() + " pairs (paused holders); " + result.overlapsUntilDoubt().size() + " until in doubt")
				.extra("seed", seed)
				.extra("lock paths (w0 holds both, taken in order; w1 the second)", String.join(", ", LOCK_PATHS))
				.extra("tokens granted on two lock paths", violations.sharedAcrossPathsText())
				.extra("token-order violations per lock path / across lock paths", violations.orderText())
				.extra("call shapes", "c2 async, c4 async-relay, others thread")
				.extra("releases on a pool thread / acquires queued behind the worker's own call (" + LOCK_PATH + ")",
						NoFaultScenario.releasesOnPoolThreads(history, LOCK_PATH) + " / "
								+ NoFaultScenario.acquiresWhileOwnCallHolds(history, LOCK_PATH))
				.extra("lock losses reported (in doubt or lost) / found on release",
						result.lossReports() + " / " + result.lostOnRelease())
				.extra("acquires failed or timed out", result.acquireFailures())
				.extra("longest gap between grants ms", longestGapMillis(history))
				.extra("slowest recovery after the last fault ms",
						Liveness.slowestRecoveryMillis(history, live, LOCK_PATH, heal.nanos()));

			REPORT.info("[soak] " + result.grants() + " grants on " + LOCK_PATHS + ": " + violations.sharedAcrossPathsText()
					+ " token(s) granted on two lock paths, " + violations.orderText()
					+ " token-order violation(s) per lock path / across lock paths");
			List<String> problems = new ArrayList<>(SafetyVerdict.problems(result, stats, false));
			problems.addAll(liveness);
			assertThat(problems).as("safety and liveness (seed %d, history %s)", seed, lab.historyFile()).isEmpty();
			Hygiene.closeAndAssertNoLeaks(lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/** Starts the rounds of a contender, on both lock paths, in its slot's call shape. */
	private static void run(FaultLab lab, ContenderProcess contender) {
		CallShape shape = shapeOf(contender);
		lab.run(contender, LOCK_PATHS, 2, -1, 5, 50, shape.isThreadOwned() ? 7 : 0, GIVE_UP_EVERY, shape);
	}

	/** Every live contender granted each lock within {@code bound} of the last heal. */
	private static List<String> liveness(List<Event> history, List<String> live, Event heal, Duration bound) {
		List<String> violations = new ArrayList<>();
		for (String lockPath : LOCK_PATHS) {
			violations.addAll(Liveness.check(history, live, lockPath, heal.nanos(), bound));
		}
		return violations;
	}

	/** {@code c2} and its replacements run async rounds, {@code c4} async-relay, the others thread. */
	private static CallShape shapeOf(ContenderProcess contender) {
		return switch (contender.id().split("#")[0]) {
			case "c2" -> CallShape.ASYNC;
			case "c4" -> CallShape.ASYNC_RELAY;
			default -> CallShape.THREAD;
		};
	}

	private static ContenderProcess newest(FaultLab lab) {
		List<ContenderProcess> live = lab.live();
		return live.get(live.size() - 1);
	}

	private static long longestGapMillis(List<Event> history) {
		long previous = -1;
		long longest = 0;
		for (Event e : history) {
			if (e.isGrant() && e.lockPath().equals(LOCK_PATH)) {
				if (previous >= 0) {
					longest = Math.max(longest, e.nanos() - previous);
				}
				previous = e.nanos();
			}
		}
		return longest / 1_000_000;
	}

	/** Reads {@code 60s}, {@code 3m}, {@code 2h}, ISO-8601 ({@code PT1M}) or plain seconds. */
	static Duration parseDuration(String text) {
		String value = text.trim().toLowerCase(Locale.ROOT);
		if (value.startsWith("p")) {
			return Duration.parse(value.toUpperCase(Locale.ROOT));
		}
		if (value.endsWith("ms")) {
			return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
		}
		char unit = value.charAt(value.length() - 1);
		if (Character.isDigit(unit)) {
			return Duration.ofSeconds(Long.parseLong(value));
		}
		long amount = Long.parseLong(value.substring(0, value.length() - 1));
		return switch (unit) {
			case 's' -> Duration.ofSeconds(amount);
			case 'm' -> Duration.ofMinutes(amount);
			case 'h' -> Duration.ofHours(amount);
			default -> throw new IllegalArgumentException("Soak duration '" + text + "': use e.g. 60s, 3m, 2h or PT1M");
		};
	}

}
