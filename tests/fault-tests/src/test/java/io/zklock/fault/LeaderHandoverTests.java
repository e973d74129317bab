package io.zklock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.zklock.fault.ensemble.ServerDistribution;
import io.zklock.fault.ensemble.ServerProcessEnsemble;
import io.zklock.fault.harness.FaultLab;
import io.zklock.fault.leader.LeaderFaults;
import io.zklock.fault.leader.LeaderFaults.Suspension;
import io.zklock.fault.leader.LeaderLab;
import io.zklock.fault.leader.LeaderProcess;
import io.zklock.fault.leader.LeaderTimeline;
import io.zklock.fault.leader.LeadershipHistory;
import io.zklock.fault.report.Figures;
import io.zklock.test.history.TermCheckResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leadership, how fast the role moves and how fast a leader stops: three leader processes
 * ({@code LeaderMain}, zklock's {@code LeaderElection}, session timeout T = 2 s) of one role on three
 * ZooKeeper server processes, writing to the fenced register with their terms' tokens.
 * <ul>
 * <li>The leader is killed ({@code SIGKILL}), three times: the next leader's first write comes
 * within T + 1 s.</li>
 * <li>The leader leaves gracefully ({@code Candidacy.leave()}: revoke, then delete the node) and
 * joins again at the back, once per process (its first leave runs code its JVM has not run yet:
 * within half the session timeout), then {@value #HANDOVERS} times: from the start of the leave
 * to the next leader's first write, p99 within 100 ms.</li>
 * <li>The leader's connection drops (its socket closed, the session kept), {@value #DROPS} times
 * while its {@code onGranted} listener blocks for 60 s and {@value #DROPS} times while its
 * {@code onRevoked} listener does: from the suspension (the ZooKeeper client's
 * {@code Disconnected}, at its next look at the socket) to its last leader work before it
 * reconnects, p99 within 100 ms.</li>
 * </ul>
 * Afterwards exactly one process leads, the history has one fenced writer per term and no stale
 * write accepted, and nothing is left under the leadership root.
 *
 * <p>
 * The members run with {@code zookeeper.forceSync=no}: a handover is one write (the old leader's
 * delete), and on a virtual disk shared with other builds an fsync's tail is the disk's, not
 * zklock's; the benchmarks' ensemble (scenario 15) measures the handover with fsync on. The bounds
 * are the targets; on a machine busy with other work they can be missed, and the message
 * gives the load average.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LeaderHandoverTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	private static final String ROLE = "handover-role";

	/** A leader that leaves waits this long for its blocked {@code onRevoked} listeners. */
	private static final String CONNECT_OPTIONS = "handover-ms=1000";

	private static final int KILLS = 3;

	private static final int HANDOVERS = 100;

	private static final int DROPS = 20;

	private static final Duration BLOCK = Duration.ofSeconds(60);

	private LeaderLab lab;

	@BeforeAll
	void start() throws Exception {
		ServerDistribution maven = ServerDistribution.maven();
		ServerProcessEnsemble ensemble = new ServerProcessEnsemble(new ServerDistribution(maven.name()
				+ " (forceSync=no)", maven.classpath(), List.of("-Dzookeeper.forceSync=no")), 3,
				FaultLab.outputRoot().resolve("leader-handover/servers"));
		this.lab = new LeaderLab("leader-handover", ensemble, SESSION_TIMEOUT, ROLE);
		this.lab.start(1, 3, false, CONNECT_OPTIONS, "");
	}

	@AfterAll
	void stop() {
		if (this.lab != null) {
			this.lab.close();
		}
	}

	@Test
	@Order(1)
	void shouldLetTheNextLeaderWriteWithinTheSessionTimeoutPlusOneSecondAfterTheLeaderIsKilled() throws Exception {
		Figures figures = new Figures("leader: kill -9 leader").ensemble(this.lab.ensemble().description());
		try {
			List<Long> failovers = new ArrayList<>();
			for (int i = 0; i < KILLS; i++) {
				LeaderProcess leader = this.lab.awaitSoleLeader(Duration.ofSeconds(30));
				long millis = LeaderFaults.kill(this.lab, leader);
				failovers.add(millis);
				figures.fault("kill -9").failover(millis);
				this.lab.replace(leader, CONNECT_OPTIONS, "");
			}
			figures.extra("kill → next leader's first write ms", failovers);
			assertThat(failovers).as("kill → next leader's first write (ms)")
				.allSatisfy((millis) -> assertThat(millis).isLessThanOrEqualTo(SESSION_TIMEOUT.plusSeconds(1).toMillis()));
			this.lab.assertSoleLeaderFor(Duration.ofSeconds(1));
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(2)
	void shouldHandTheRoleOverWithinOneHundredMillisecondsWhenTheLeaderLeaves() throws Exception {
		Figures figures = new Figures("leader: graceful handover").ensemble(this.lab.ensemble().description());
		try {
			// each process's first leave runs code its JVM has not run yet: reported apart, bounded
			// only by what makes it a handover (well within the session timeout, no expiry)
			List<Long> first = new ArrayList<>();
			for (int i = 0; i < this.lab.live().size(); i++) {
				LeaderProcess leader = this.lab.awaitSoleLeader(Duration.ofSeconds(30));
				first.add(LeaderFaults.handOver(this.lab, leader));
				leader.join("");
			}
			List<Long> micros = new ArrayList<>();
			for (int i = 0; i < HANDOVERS; i++) {
				LeaderProcess leader = this.lab.awaitSoleLeader(Duration.ofSeconds(30));
				micros.add(LeaderFaults.handOver(this.lab, leader));
				leader.join("");
			}
			String load = LeaderLab.loadAverage();
			figures.fault("leave").extra("handovers", micros.size())
				.extra("leave → next leader's first write p50/p99/max ms", percentiles(micros))
				.extra("each process's first leave ms", first.stream().map((us) -> us / 1000).toList())
				.extra("load average", load);
			assertThat(first).as("each process's first leave → next leader's first write (µs)")
				.allSatisfy((us) -> assertThat(us).isLessThan(SESSION_TIMEOUT.toNanos() / 2_000));
			assertThat(percentile(micros, 99) / 1000.0).as("leave → next leader's first write p99 (ms) of %s, load "
					+ "average %s", percentiles(micros), load).isLessThanOrEqualTo(100);
			this.lab.assertSoleLeaderFor(Duration.ofSeconds(1));
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(3)
	void shouldStopLeaderWorkWithinOneHundredMillisecondsOfASuspensionWhileAGrantListenerBlocks() throws Exception {
		suspensions("onGranted");
	}

	@Test
	@Order(4)
	void shouldStopLeaderWorkWithinOneHundredMillisecondsOfASuspensionWhileARevocationListenerBlocks()
			throws Exception {
		suspensions("onRevoked");
	}

	/**
	 * Every process leaves; one joins with a listener that blocks each {@code listener} call for
	 * 60 s and leads alone; its connection is dropped {@value #DROPS} times; then every process
	 * joins again.
	 */
	private void suspensions(String listener) throws Exception {
		Figures figures = new Figures("leader: suspension → stopped work, " + listener + " listener blocking 60 s")
			.ensemble(this.lab.ensemble().description());
		List<LeaderProcess> live = this.lab.live();
		try {
			live.forEach(LeaderProcess::leave);
			LeaderProcess leader = live.get(0);
			leader.join("block=" + listener + ":" + BLOCK.toMillis());
			assertThat(this.lab.awaitSoleLeader(Duration.ofSeconds(30)).id()).isEqualTo(leader.id());
			List<Long> micros = new ArrayList<>();
			List<Long> noticed = new ArrayList<>();
			Map<String, Integer> revocations = new TreeMap<>();
			for (int i = 0; i < DROPS; i++) {
				Suspension suspension = LeaderFaults.dropConnection(this.lab, leader);
				micros.add(suspension.stoppedMicros());
				noticed.add(suspension.noticedMicros());
				revocations.merge(suspension.revocation(), 1, Integer::sum);
				figures.fault("connection drop");
			}
			String load = LeaderLab.loadAverage();
			figures.extra("suspension (Disconnected) → last leader work p50/p99/max ms", percentiles(micros))
				.extra("socket closed → client's Disconnected p50/p99/max ms", percentiles(noticed))
				.extra("revoked as", revocations)
				.extra("load average", load);
			assertThat(percentile(micros, 99) / 1000.0)
				.as("suspension → last leader work, p99 (ms) of %s, load average %s", percentiles(micros), load)
				.isLessThanOrEqualTo(100);
		}
		finally {
			live.forEach(LeaderProcess::leave);
			live.forEach((leader) -> leader.join(""));
			figures.report(FaultLab.outputRoot());
		}
	}

	@Test
	@Order(5)
	void shouldKeepOneLeaderAndOneFencedWriterPerTermAndLeaveNothingBehind() {
		Figures figures = new Figures("leader: handover tests, history and hygiene").ensemble(this.lab.ensemble().description());
		try {
			this.lab.awaitSoleLeader(Duration.ofSeconds(30));
			this.lab.assertSoleLeaderFor(Duration.ofSeconds(1));
			LeaderTimeline timeline = this.lab.timeline();
			LeaderTimeline.StaleWrites stale = timeline.staleWrites(0, Long.MAX_VALUE);
			TermCheckResult terms = LeadershipHistory.checkTerms(this.lab.history().snapshot(), ROLE);
			figures.staleWrites(stale.refused(), stale.accepted())
				.extra("terms / resumptions", terms.terms() + " / " + terms.resumptions())
				.extra("writes accepted / refused with a term's token", terms.acceptedWrites() + " / " + terms.refusedWrites());
			terms.assertOneFencedWriterPerTerm();
			assertThat(stale.accepted()).as("stale writes accepted").isZero();
			List<String> left = this.lab.closeLeadersAndListNodesLeft();
			figures.leaks(left.size(), 0);
			assertThat(left).as("nodes under the leadership root with every leader closed").isEmpty();
		}
		finally {
			figures.report(FaultLab.outputRoot());
		}
	}

	private static long percentile(List<Long> values, int p) {
		List<Long> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int rank = (int) Math.ceil(p / 100.0 * sorted.size());
		return sorted.get(Math.max(0, rank - 1));
	}

	private static String percentiles(List<Long> micros) {
		return String.format(Locale.ROOT, "%.1f / %.1f / %.1f (n=%d)", percentile(micros, 50) / 1000.0,
				percentile(micros, 99) / 1000.0, percentile(micros, 100) / 1000.0, micros.size());
	}

}
