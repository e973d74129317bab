package io.zklock.fault;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.check.FaultHistory;
import io.zklock.fault.check.Liveness;
import io.zklock.fault.check.SafetyVerdict;
import io.zklock.fault.contender.CallShape;
import io.zklock.fault.ensemble.EnsembleProbe;
import io.zklock.fault.ensemble.ServerDistribution;
import io.zklock.fault.ensemble.ServerProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.history.Event;
import io.zklock.fault.history.EventStream;
import io.zklock.fault.register.KeyStats;
import io.zklock.fault.report.Figures;
import io.zklock.fault.scenario.HolderKillScenario;
import io.zklock.fault.scenario.Hygiene;
import io.zklock.fault.scenario.NoFaultScenario;
import io.zklock.test.history.CheckResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Test 6, mixed versions: the zklock client (ZooKeeper 3.9 client library) against Debian's
 * packaged ZooKeeper 3.8 servers, three {@code QuorumPeerMain} processes on loopback. Runs the
 * no-fault and holder-kill scenarios, and pauses the leader ({@code SIGSTOP}) for two session
 * timeouts under load. Needs the {@code zookeeper} package ({@code apt-get install -y
 * zookeeper}); without it every test here fails, saying so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DebianZooKeeperTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private ServerProcessEnsemble ensemble;

	private FaultLab lab;

	@BeforeAll
	void startDebianEnsemble() throws Exception {
		ServerDistribution debian = ServerDistribution.debian();
		this.ensemble = new ServerProcessEnsemble(debian, 3, FaultLab.outputRoot().resolve("6-debian-zookeeper/servers"));
		this.lab = new FaultLab("6-debian-zookeeper", this.ensemble, SESSION_TIMEOUT);
	}

	@AfterAll
	void stop() {
		if (this.lab != null) {
			this.lab.close();
		}
	}

	@Test
	@Order(1)
	void shouldRunTheServersOfDebiansZooKeeper38Package() {
		assertThat(this.ensemble.version()).as("server version (srvr)").startsWith("3.8.");
	}

	@Test
	@Order(2)
	void shouldExcludeWithoutFaultsAgainstDebianServers() throws Exception {
		Figures figures = new Figures("6 Debian 3.8: no faults").ensemble(this.ensemble.description());
		try {
			NoFaultScenario.run(this.lab, "debian/nofault", 4, 4, 800, CallShape.THREAD, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(3)
	void shouldFailOverFromAKilledHolderAgainstDebianServers() throws Exception {
		Figures figures = new Figures("6 Debian 3.8: SIGKILL holder").ensemble(this.ensemble.description());
		try {
			HolderKillScenario.run(this.lab, "debian/kill", 3, 4, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(4)
	void shouldStaySafeWhileTheLeaderIsPausedUnderLoadAgainstDebianServers() throws Exception {
		Figures figures = new Figures("6 Debian 3.8: SIGSTOP leader").ensemble(this.ensemble.description());
		String lockPath = "debian/leader-pause";
		try {
			this.lab.runAll(lockPath, 2, -1, 5, 20, 7);
			Event heal;
			try (EventStream events = this.lab.history().subscribe()) {
				awaitGrants(events, lockPath, 20, 0);
				int leader = EnsembleProbe.awaitLeader(this.ensemble);
				Event fault = this.lab.history().nemesis("SIGSTOP leader", "server-" + (leader + 1));
				this.ensemble.pause(leader);
				figures.fault("SIGSTOP leader");
				int successor = EnsembleProbe.awaitLeader(this.ensemble);
				figures.extra("new leader after the pause", "server-" + (successor + 1) + " after "
						+ (System.nanoTime() - fault.nanos()) / 1_000_000 + " ms");
				awaitGrants(events, lockPath, 20, fault.nanos());
				Event fresh = Liveness.firstFreshGrantAfter(this.lab.history().snapshot(), lockPath, fault.nanos(), null);
				if (fresh != null) {
					figures.failover((fresh.nanos() - fault.nanos()) / 1_000_000);
				}
				Duration pause = SESSION_TIMEOUT.multipliedBy(2);
				await().pollDelay(Duration.ofNanos(Math.max(0, pause.toNanos() - (System.nanoTime() - fault.nanos()))))
					.atMost(pause.plusSeconds(5))
					.until(() -> true);
				heal = this.lab.history().nemesis("SIGCONT leader", "server-" + (leader + 1));
				this.ensemble.resume(leader);
			}
			Duration bound = SESSION_TIMEOUT.multipliedBy(2);
			List<String> live = this.lab.liveIds();
			await().atMost(bound.plusSeconds(5))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> Liveness.check(this.lab.history().snapshot(), live, lockPath, heal.nanos(), bound).isEmpty()
						|| System.nanoTime() - heal.nanos() > bound.toNanos());
			List<String> liveness = Liveness.check(this.lab.history().snapshot(), live, lockPath, heal.nanos(), bound);
			this.lab.stopAll();

			CheckResult result = FaultHistory.check(this.lab.history().snapshot(), lockPath);
			KeyStats stats = this.lab.register().stats(lockPath);
			figures.rounds(result.grants())
				.staleWrites(stats.rejectedStale(), stats.acceptedStale())
				.overlaps(Integer.toString(result.overlaps().size()))
				.extra("lock losses reported (in doubt or lost) / found on release",
						result.lossReports() + " / " + result.lostOnRelease());
			SafetyVerdict.assertSafe(result, stats, true, this.lab.historyFile());
			assertThat(liveness).as("liveness within two session timeouts after the leader resumed").isEmpty();
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(5)
	void shouldLeaveNothingBehind() throws Exception {
		Figures figures = new Figures("6 Debian 3.8: hygiene").ensemble(this.ensemble.description());
		try {
			Hygiene.closeAndAssertNoLeaks(this.lab, figures);
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	/** Waits for {@code count} grants stamped after {@code afterNanos}. */
	private static void awaitGrants(EventStream events, String lockPath, int count, long afterNanos)
			throws InterruptedException {
		for (int i = 0; i < count; i++) {
			events.next(count + " grants on '" + lockPath + "'",
					(e) -> e.isGrant() && e.lockPath().equals(lockPath) && e.nanos() > afterNanos,
					SESSION_TIMEOUT.multipliedBy(4));
		}
	}

}
