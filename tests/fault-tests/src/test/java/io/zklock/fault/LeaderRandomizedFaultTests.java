package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.zklock.fault.ensemble.ServerDistribution;
import io.zklock.fault.ensemble.ServerProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.leader.LeaderFaults;
import io.zklock.fault.leader.LeaderLab;
import io.zklock.fault.leader.LeaderProcess;
import io.zklock.fault.leader.LeaderTimeline;
import io.zklock.fault.leader.LeadershipHistory;
import io.zklock.fault.report.Figures;
import io.zklock.test.history.TermCheckResult;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Leadership under a seeded random mix of faults: three leader processes ({@code LeaderMain},
 * session timeout T = 2 s) of one role on three ZooKeeper server processes, each behind its own
 * black-hole proxy, writing to the fenced register with their terms' tokens. One fault at a time,
 * on the leader every other time (else on any process), held for a random while, then healed: a
 * freeze ({@code SIGSTOP}) of 2T–2.5T (the session expires) or 0.2T–0.6T (it does not), a cut-off
 * from every member of the same lengths, a kill ({@code SIGKILL}, then a new process in its place),
 * a graceful leave and rejoin, a dropped connection. Afterwards: exactly one leader, and the same,
 * over two seconds; one fenced writer per term (zklock's history checker,
 * {@code HistoryChecker.checkTerms}); no stale write accepted; no leader work that ran more than
 * 50 ms after a later term began; nothing left under the leadership root.
 *
 * <p>
 * {@code -Dzklock.leader.faults.duration} sets how long faults are injected ({@code 45s} unless
 * given, which the default build runs; {@code 10m}, {@code PT1H} for a long run);
 * {@code -Dzklock.leader.faults.seed} replays a schedule (the seed is printed).
 */
class LeaderRandomizedFaultTests {

	/** Figures and outcomes for the reader of the run (logger io.zklock.fault.report, INFO). */
	private static final Logger REPORT = LoggerFactory.getLogger("io.zklock.fault.report");

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	private static final String ROLE = "random-role";

	private static final double TWO_LEADERS_MAX_MS = 50;

	/** The faults of the mix. */
	enum Kind {

		FREEZE_PAST_SESSION, FREEZE_WITHIN_SESSION, CUT_OFF_PAST_SESSION, CUT_OFF_WITHIN_SESSION, KILL, LEAVE,
		DROP_CONNECTION

	}

	@Test
	void shouldKeepOneFencedWriterPerTermAndOneLeaderUnderRandomFaults() {
		Duration duration = RandomizedFaultSoakTests
			.parseDuration(System.getProperty("zklock.leader.faults.duration", "45s"));
		String seedProperty = System.getProperty("zklock.leader.faults.seed", "");
		long seed = seedProperty.isBlank() ? System.nanoTime() : Long.parseLong(seedProperty.trim());
		REPORT.info("[leader faults] seed=" + seed + " duration=" + duration + " (replay: -Dzklock.leader.faults.seed="
				+ seed + " -Dzklock.leader.faults.duration=" + duration.toSeconds() + "s)");
		assertTimeoutPreemptively(duration.plusMinutes(4), () -> run(duration, seed));
	}

	private void run(Duration duration, long seed) throws Exception {
		Figures figures = new Figures("leader: randomized faults (seed " + seed + ", " + duration.toSeconds() + " s)");
		ServerProcessEnsemble ensemble = new ServerProcessEnsemble(ServerDistribution.maven(), 3,
				FaultLab.outputRoot().resolve("leader-randomized/servers"));
		figures.ensemble(ensemble.description());
		try (LeaderLab lab = new LeaderLab("leader-randomized", ensemble, SESSION_TIMEOUT, ROLE)) {
			lab.start(1, 3, true, "", "");
			Random random = new Random(seed);
			List<Long> faultEnds = new ArrayList<>();
			Map<String, Integer> kinds = new TreeMap<>();
			long end = System.nanoTime() + duration.toNanos();
			while (System.nanoTime() - end < 0) {
				Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
				boolean atLeader = random.nextBoolean();
				double stretch = random.nextDouble();
				long rest = 200 + random.nextInt(800);
				LeaderProcess target = atLeader ? lab.awaitSoleLeader(SESSION_TIMEOUT.multipliedBy(3).plusSeconds(10))
						: lab.live().get(random.nextInt(lab.live().size()));
				kinds.merge(kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), 1, Integer::sum);
				faultEnds.add(inject(lab, kind, target, stretch));
				LeaderFaults.sleepUntil(System.nanoTime() + Duration.ofMillis(rest).toNanos());
			}
			kinds.forEach((kind, count) -> {
				for (int i = 0; i < count; i++) {
					figures.fault(kind);
				}
			});
			lab.nemesis("quiet", "all");
			lab.awaitSoleLeader(SESSION_TIMEOUT.multipliedBy(3).plusSeconds(10));
			lab.assertSoleLeaderFor(Duration.ofSeconds(2));

			List<Event> history = lab.history().snapshot();
			LeaderTimeline timeline = LeaderTimeline.of(history, ROLE);
			LeaderTimeline.StaleWrites stale = timeline.staleWrites(0, Long.MAX_VALUE);
			LeaderTimeline.TwoLeaders two = timeline.twoRunningLeaders(0, Long.MAX_VALUE, faultEnds);
			TermCheckResult terms = LeadershipHistory.checkTerms(history, ROLE);
			figures.staleWrites(stale.refused(), stale.accepted())
				.extra("seed", seed)
				.extra("terms / resumptions after jeopardy", terms.terms() + " / " + terms.resumptions())
				.extra("writes accepted / refused with a term's token", terms.acceptedWrites() + " / " + terms.refusedWrites())
				.extra("two running leaders (longest, ms; checks)", two.millis() + "; " + two.checks() + " (" + two.who() + ")")
				.extra("load average", LeaderLab.loadAverage());
			terms.assertOneFencedWriterPerTerm();
			assertThat(stale.accepted()).as("stale writes accepted (seed %d, history %s)", seed,
					FaultLab.outputRoot().resolve("leader-randomized/history.txt")).isZero();
			assertThat(two.millis()).as("two running leaders, ms (seed %d): %s", seed, two)
				.isLessThanOrEqualTo(TWO_LEADERS_MAX_MS);
			List<String> left = lab.closeLeadersAndListNodesLeft();
			figures.leaks(left.size(), 0);
			assertThat(left).as("nodes under the leadership root with every leader closed").isEmpty();
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/**
	 * Injects one fault and heals it.
	 * @return when it ended (a resumed or healed process can run leader work from then on)
	 */
	private static long inject(LeaderLab lab, Kind kind, LeaderProcess target, double stretch)
			throws InterruptedException {
		Duration past = Duration.ofMillis((long) (SESSION_TIMEOUT.toMillis() * (2 + 0.5 * stretch)));
		Duration within = Duration.ofMillis((long) (SESSION_TIMEOUT.toMillis() * (0.2 + 0.4 * stretch)));
		switch (kind) {
			case FREEZE_PAST_SESSION, FREEZE_WITHIN_SESSION -> {
				Event fault = lab.nemesis("SIGSTOP", target.id());
				target.pause();
				LeaderFaults.sleepUntil(fault.nanos() + ((kind == Kind.FREEZE_PAST_SESSION) ? past : within).toNanos());
				Event heal = lab.nemesis("SIGCONT", target.id());
				target.resume();
				return heal.nanos();
			}
			case CUT_OFF_PAST_SESSION, CUT_OFF_WITHIN_SESSION -> {
				Event fault = lab.nemesis("partition", target.id());
				lab.proxyOf(target).blackHole();
				LeaderFaults.sleepUntil(fault.nanos() + ((kind == Kind.CUT_OFF_PAST_SESSION) ? past : within).toNanos());
				Event heal = lab.nemesis("heal partition", target.id());
				lab.proxyOf(target).heal();
				return heal.nanos();
			}
			case KILL -> {
				lab.nemesis("kill -9", target.id());
				target.kill();
				lab.replace(target, "", "");
				return System.nanoTime();
			}
			case LEAVE -> {
				target.leave();
				target.join("");
				return System.nanoTime();
			}
			case DROP_CONNECTION -> {
				target.dropConnection();
				return System.nanoTime();
			}
			default -> throw new IllegalStateException(kind.name());
		}
	}

}
