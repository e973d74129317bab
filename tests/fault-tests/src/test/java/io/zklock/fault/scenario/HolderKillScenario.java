package io.zklock.fault.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zklock.fault.check.FaultHistory;
import io.zklock.fault.check.Liveness;
import io.zklock.fault.check.SafetyVerdict;
import io.zklock.fault.harness.ContenderProcess;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.history.EventStream;
import io.zklock.fault.register.KeyStats;
import io.zklock.fault.report.Figures;
import io.zklock.test.history.CheckResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The holder crashes: contenders run long guarded sections; right after a grant, the test
 * kills the holder's JVM with {@code SIGKILL} mid-section, repeatedly (each victim is replaced
 * by a fresh process). The rival must be granted within the session timeout plus one second
 * (the crashed session's lock node goes when the server expires it); nothing overlaps, no
 * stale write is accepted, and every contender acquires again after the last crash.
 */
public final class HolderKillScenario {

	/** How long a guarded section lasts: long enough to be sure the kill lands inside it. */
	private static final int SECTION_MS = 800;

	private HolderKillScenario() {
	}

	public static void run(FaultLab lab, String lockPath, int contenders, int kills, Figures figures) throws Exception {
		Duration session = lab.sessionTimeout();
		Duration failoverBound = session.plusSeconds(1);
		lab.startContenders(contenders, false);
		lab.runAll(lockPath, 1, -1, SECTION_MS, SECTION_MS, 0);
		List<String> slowFailovers = new ArrayList<>();
		long healNanos;
		try (EventStream events = lab.history().subscribe()) {
			for (int i = 0; i < kills; i++) {
				events.clear();
				Event grant = events.next("a grant on '" + lockPath + "'",
						(e) -> e.isGrant() && e.lockPath().equals(lockPath), Duration.ofSeconds(30));
				ContenderProcess victim = lab.contender(grant.process());
				Event death = victim.kill();
				figures.fault("kill -9 holder");
				assertThat(lab.history().snapshot())
					.as("%s was killed mid-section: it had not started to release token %d", victim.id(), grant.token())
					.noneMatch((e) -> e.process().equals(victim.id()) && e.is("invoke", "release")
							&& e.token() == grant.token());
				Event rival = events.next("a grant to a rival after " + victim.id() + " was killed",
						(e) -> e.isGrant() && e.lockPath().equals(lockPath) && e.nanos() > death.nanos()
								&& !e.process().equals(victim.id()),
						session.multipliedBy(3).plusSeconds(10));
				long failoverMs = (rival.nanos() - death.nanos()) / 1_000_000;
				figures.failover(failoverMs);
				if (failoverMs > failoverBound.toMillis()) {
					slowFailovers.add("kill " + (i + 1) + ": " + rival.process() + " acquired " + failoverMs
							+ " ms after " + victim.id() + " died");
				}
				ContenderProcess replacement = lab.replace(victim);
				lab.run(replacement, lockPath, 1, -1, SECTION_MS, SECTION_MS, 0);
			}
			healNanos = System.nanoTime();
		}
		List<String> live = lab.liveIds();
		Duration livenessBound = session.multipliedBy(2);
		await("every live contender acquires after the last crash").atMost(livenessBound.plusSeconds(5))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> Liveness.check(lab.history().snapshot(), live, lockPath, healNanos, livenessBound).isEmpty()
					|| System.nanoTime() - healNanos > livenessBound.toNanos());
		List<Event> history = lab.history().snapshot();
		List<String> liveness = Liveness.check(history, live, lockPath, healNanos, livenessBound);
		lab.stopAll();

		history = lab.history().snapshot();
		CheckResult result = FaultHistory.check(history, lockPath);
		KeyStats stats = lab.register().stats(lockPath);
		figures.rounds(result.grants())
			.staleWrites(stats.rejectedStale(), stats.acceptedStale())
			.overlaps(Integer.toString(result.overlaps().size()))
			.extra(lockPath + " failover bound (session + 1 s) ms", failoverBound.toMillis())
			.extra(lockPath + " slowest recovery after the last crash ms",
					Liveness.slowestRecoveryMillis(history, live, lockPath, healNanos));

		SafetyVerdict.assertSafe(result, stats, true, lab.historyFile());
		assertThat(slowFailovers).as("failovers slower than the session timeout plus one second").isEmpty();
		assertThat(liveness).as("liveness within two session timeouts after the last crash").isEmpty();
	}

}
